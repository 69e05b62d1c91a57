"""The lobby's filters: map, number of players, turn length, a free seat."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_filters_narrow_the_open_games(make_user, client):
    from games import services

    a = make_user()
    g3 = services.game_create(creator=a, map="germany", max_players=3)
    g4 = services.game_create(creator=a, map="usa", max_players=4, options={"turn_hours": 72})

    def ids(url: str) -> set[int]:
        page = client.get(url).content.decode()
        return {int(x) for x in re.findall(r'href="/games/(\d+)/"', page)}

    assert {g3.pk, g4.pk} <= ids("/")
    assert ids("/?map=germany") >= {g3.pk}
    assert g4.pk not in ids("/?map=germany")
    assert g3.pk not in ids("/?players=4")
    assert g4.pk not in ids("/?turn=24")
    assert g3.pk in ids("/?free=1")
    assert {g3.pk, g4.pk} <= ids("/?map=atlantis")  # an unknown map is no filter
    # a number that is not one is refused (games.numbers), not ignored
    assert client.get("/?players=x").status_code == 400


def test_a_row_names_the_areas_or_says_they_are_random(make_user, client):
    from games import services

    a = make_user()
    services.game_create(creator=a, map="germany", max_players=3, areas=["green", "brown", "red"])
    services.game_create(creator=a, map="usa", max_players=3)
    page = client.get("/").content.decode()
    assert "areas: Green, Brown, Red" in page
    assert "random areas" in page


def test_the_free_seat_filter_looks_past_full_games(make_user, client):
    """Thirty full games left open by their creators (newest first) do not hide an older game
    with a free seat: the filter is in the query, not applied to the page's first rows."""
    from games import services

    a = make_user()
    older = services.game_create(creator=a, map="germany", max_players=3)
    for _ in range(30):
        g = services.game_create(
            creator=a, map="germany", max_players=2, options={"auto_start": False}
        )
        services.game_join(game_id=g.pk, user=make_user())
    page = client.get("/?free=1").content.decode()
    assert {int(x) for x in re.findall(r'href="/games/(\d+)/"', page)} == {older.pk}


def test_a_row_shows_each_players_turns_in_time(new_game, client):
    """A player who let a turn time out shows "0% in time" beside their name in the lobby."""
    from apihelpers import seat_players

    import powergrid
    from games import services
    from games.models import Game
    from games.services.moves import move_apply_system

    gid, ps = new_game(players=2)
    g = Game.objects.get(pk=gid)
    seat = g.to_act[0]
    action = powergrid.default_action(powergrid.from_json(g.state_json), seat)
    move_apply_system(game=gid, seat=seat, action=action, source="timeout")
    late = seat_players(gid, ps)[seat].user
    open_game = services.game_create(creator=late, map="germany", max_players=3)
    page = client.get("/").content.decode()
    row = page[page.index(f'href="/games/{open_game.pk}/"') :]
    row = row[: row.index("</li>")]
    assert f'href="/players/{late.username}/"' in row
    assert "0% in time" in row


def test_a_row_says_which_plant_deck_a_game_plays_with(make_user, client):
    from games import services

    a = make_user()
    services.game_create(creator=a, map="germany", max_players=3, options={"plant_deck": "new"})
    services.game_create(creator=a, map="usa", max_players=3, options={"plant_deck": "mixed"})
    page = client.get("/").content.decode()
    assert "· New Power Plants deck" in page
    assert "· New Power Plants mixed with the base deck" in page
