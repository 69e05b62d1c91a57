"""The lobby says what each board plays by, in the reader's language, and refuses areas whose
cities are not one network."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "intro", "each", "sep", "end"),
    [
        ("en", "Areas in play by player count: ", "{n} players: {a}", ", ", "."),
        ("ja", "人数ごとの使用エリア数：", "{n}人：{a}", "、", "。"),
    ],
)
def test_the_areas_per_player_count_read_as_one_sentence_of_the_readers_language(
    make_user, client_for, lang, intro, each, sep, end
):
    from powergrid.tables import PLAYER_COUNTS

    user = make_user()
    Profile.objects.filter(user=user).update(language=lang)
    html = client_for(user).get("/games/new/").content.decode()
    counts = sep.join(each.format(n=n, a=row.areas) for n, row in sorted(PLAYER_COUNTS.items()))
    assert intro + counts + end in html


@pytest.mark.parametrize(
    ("lang", "france", "italy"),
    [
        ("en", "Uranium starts at price 5 (8 tokens in the market).", "Coal starts at price 3"),
        ("ja", "ウランは価格5から始まります（市場に8個）。", "石炭は価格3から始まります"),
    ],
)
def test_the_new_game_page_states_each_maps_own_rules(make_user, client_for, lang, france, italy):
    user = make_user()
    Profile.objects.filter(user=user).update(language=lang)
    html = client_for(user).get("/games/new/").content.decode()
    assert france in html
    assert italy in html
    # Seed 002 *1: on France 13 is an ordinary card (rules edition 2), not out of the game.
    assert (
        "Plant 13 is out of the game." if lang == "en" else "発電所13はこのゲームでは使いません。"
    ) not in html


def test_areas_whose_cities_are_cut_apart_are_refused_on_the_page(make_user, client_for):
    c = client_for(make_user())
    r = c.post(
        "/games/new/",
        {
            "map": "italy",
            "max_players": "2",
            "area_mode": "chosen",
            "areas_italy": ["blue", "green", "red"],
            "turn_hours": "24",
        },
    )
    assert r.status_code == 400
    assert "not one network" in r.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("players", "variant", "line"),
    [
        (3, "standard", "Step 2 at 7 cities, the game ends at 17."),
        (2, "standard", "Step 2 at 10 cities, the game ends at 21."),
        (3, "first_game", "The game ends at 7 cities."),
    ],
)
def test_the_board_says_when_step_2_comes_and_when_the_game_ends(
    started_game, client_for, players, variant, line
):
    game, users = started_game(players, options={"variant": variant})
    html = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert line in html
