"""The New Power Plants deck through the server: the create call's option, the state and the
record, a move naming a new card by its id, and the pages (create form, game page, reference
panel, move form) in English and in Japanese."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

import powergrid
from accounts.models import Profile
from games.models import Game
from tests.i18n_helpers import english_words

pytestmark = pytest.mark.django_db


def test_the_api_creates_a_game_with_the_new_deck(new_game) -> None:
    gid, ps = new_game(players=3, options={"plant_deck": "new"})
    game = Game.objects.get(pk=gid)
    assert game.plant_deck == "new"
    s = powergrid.from_json(game.state_json)
    assert s.plant_deck == "new"
    assert s.market[:4] == (101, 102, 103, 104)
    by_user = {p.user.pk: p for p in ps}
    opener = powergrid.to_act(s)[0]
    player = by_user[game.seats.get(seat=opener).user_id]
    st = player.get(f"/api/v1/games/{gid}/state/").json()
    assert st["plant_deck"] == "new"
    assert st["plant_market"]["current"][0]["id"] == 101
    entry = next(e for e in st["legal"] if e["type"] == "choose_plant")
    assert entry["plants"][0] == {"number": 1, "id": 101, "min_bid": 1}
    r = player.post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"type": "choose_plant", "plant": 101, "bid": 1}, "expected_seq": 0},
    )
    assert r.status_code == 201, r.json()
    assert player.get(f"/api/v1/games/{gid}/").json()["options"]["plant_deck"] == "new"


def test_an_unknown_deck_is_refused(make_player) -> None:
    p = make_player()
    r = p.post(
        "/api/v1/games/",
        {"map": "germany", "max_players": 3, "options": {"plant_deck": "big"}},
    )
    assert r.status_code == 400
    assert "plant_deck" in r.content.decode()


def test_a_base_game_keeps_its_state(new_game) -> None:
    gid, _ = new_game(players=3)
    game = Game.objects.get(pk=gid)
    assert game.plant_deck == "base"
    assert "plant_deck" not in game.state_json


def _page(started_game, client_for, lang: str, deck: str) -> str:
    game, users = started_game(3, options={"plant_deck": deck})
    for u in users:
        Profile.objects.filter(user=u).update(language=lang)
    awaited = game.to_act[0]
    me = next(u for u in users if game.seats.get(seat=awaited).user_id == u.pk)
    resp = client_for(me).get(f"/games/{game.pk}/")
    assert resp.status_code == 200
    return resp.content.decode()


def test_the_game_page_in_english(started_game, client_for) -> None:
    html = _page(started_game, client_for, "en", "mixed")
    assert "New Power Plants mixed with the base game&#x27;s plants." in html  # escaped
    assert "New Power Plants: the cards of this game" in html
    assert 'class="plant f-coal deck-new" data-plant="101"' in html
    # The auction form names the new cards by id, shows their number.
    assert 'name="plant" value="101"' in html


def test_the_game_page_in_japanese(started_game, client_for) -> None:
    html = _page(started_game, client_for, "ja", "new")
    assert "新発電所カードのみ。" in html
    assert "新発電所カード：このゲームの発電所カード一覧" in html
    assert "New Power Plants" not in html
    assert not [w for w in english_words(html) if w in {"New", "Power", "Plants", "deck"}]


@pytest.mark.parametrize(
    ("lang", "label"),
    [("en", "Power plant deck"), ("ja", "発電所カードの山札")],
)
def test_the_create_form_offers_the_decks(make_user, lang: str, label: str) -> None:
    user = make_user()
    Profile.objects.filter(user=user).update(language=lang)
    c = Client()
    c.force_login(user)
    html = c.get("/games/new/").content.decode()
    assert label in html
    assert 'value="mixed"' in html


def test_the_create_form_creates_a_new_deck_game(make_user) -> None:
    user = make_user()
    c = Client()
    c.force_login(user)
    data: dict[str, Any] = {
        "map": "germany",
        "max_players": 3,
        "area_mode": "random",
        "turn_hours": 24,
        "plant_deck": "new",
    }
    resp = c.post("/games/new/", data)
    assert resp.status_code == 302, resp.content.decode()[:2000]
    assert Game.objects.filter(creator=user).get().plant_deck == "new"
