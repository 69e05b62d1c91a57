"""Watchers of a private game (``games.services.watchers``, ``games.models.Watcher``): the rule
of who may see a game lets them see it (``games.selectors.visibility``), exactly
as anyone sees a public game: no seat, no move, no chat as a player, nothing a seat hides, and
the game is not among the games they play (the "mine" lists, the calendar, the next game)."""

from __future__ import annotations

import pytest
from apihelpers import leaf_values, seat_players
from django.test import Client

pytestmark = pytest.mark.django_db


def _private(new_game, make_player, *, players: int = 3):
    """A running private game (joined by its link, as a tournament's table is) and a watcher."""
    from games.models import Game
    from games.services.watchers import watchers_grant

    gid, ps = new_game(players=players)
    game = Game.objects.get(pk=gid)
    game.options = {**game.options, "private": True}  # joined by its link, as players do
    game.save(update_fields=["options"])
    watcher, stranger = make_player(), make_player()
    assert watchers_grant(game_id=gid, users=[watcher.user]) == 1
    return gid, ps, watcher, stranger


def test_granting_is_idempotent_and_takes_users_or_keys(new_game, make_player):
    from games.models import Watcher
    from games.services.watchers import watchers_grant

    gid, _ps, watcher, stranger = _private(new_game, make_player)
    assert watchers_grant(game_id=gid, users=[watcher.user, watcher.user.pk, stranger.user.pk]) == 2
    assert watchers_grant(game_id=gid, users=[]) == 0
    assert sorted(Watcher.objects.filter(game_id=gid).values_list("user_id", flat=True)) == sorted(
        [watcher.user.pk, stranger.user.pk]
    )


def test_a_watcher_sees_the_game_a_stranger_does_not(new_game, make_player):
    from games.models import Game
    from games.selectors.visibility import game_visible, games_visible_among

    gid, _ps, watcher, stranger = _private(new_game, make_player)
    for path in ("", "state/", "moves/", "result/", "record/"):
        assert stranger.get(f"/api/v1/games/{gid}/{path}").status_code == 404, path
        assert watcher.get(f"/api/v1/games/{gid}/{path}").status_code != 404, path
    assert watcher.get(f"/api/v1/games/{gid}/").status_code == 200
    page = Client()
    page.force_login(watcher.user)
    assert page.get(f"/games/{gid}/").status_code == 200
    page.force_login(stranger.user)
    assert page.get(f"/games/{gid}/").status_code == 404
    assert Client().get(f"/games/{gid}/").status_code == 404
    # The rule as a filter and for one game agree.
    game = Game.objects.get(pk=gid)
    assert game_visible(game, watcher.user)
    assert not game_visible(game, stranger.user)
    assert games_visible_among(watcher.user, [gid, 10**9]) == {gid}
    assert games_visible_among(stranger.user, [gid]) == set()
    assert games_visible_among(None, []) == set()


def test_a_watcher_sees_what_anyone_sees_of_a_public_game(new_game, make_player):
    """No legal move, nobody's money (docs/API.md: another player's money is never shown):
    the watcher's state is, to the byte, what a stranger reads once the game is public."""
    from games.models import Game

    gid, ps, watcher, stranger = _private(new_game, make_player)
    seen = watcher.get(f"/api/v1/games/{gid}/state/").json()
    assert seen["legal"] == []
    assert [p["money"] for p in seen["players"]] == [None] * len(ps)
    mine = ps[0].get(f"/api/v1/games/{gid}/state/").json()
    assert [p["money"] is None for p in mine["players"]].count(False) == 1  # their own
    game = Game.objects.get(pk=gid)
    game.options = {**game.options, "private": False}
    game.save(update_fields=["options"])
    assert stranger.get(f"/api/v1/games/{gid}/state/").json() == seen
    money = {p["money"] for p in mine["players"] if p["money"] is not None}
    assert not money & set(leaf_values(seen["players"]))


def test_a_watcher_cannot_move_chat_join_or_take_a_seat(new_game, make_player):
    from games.models import Game, Move, Seat

    gid, ps, watcher, _stranger = _private(new_game, make_player)
    seq = Game.objects.get(pk=gid).seq
    r = watcher.post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"type": "pass_auction"}, "expected_seq": seq},
    )
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_a_player")
    r = watcher.post(f"/api/v1/games/{gid}/chat/", {"text": "hello"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_a_player")
    seats = seat_players(gid, ps)
    assert seats[1].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    r = watcher.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_invited")
    assert not Seat.objects.filter(game_id=gid, user=watcher.user).exists()
    assert not Move.objects.filter(game_id=gid, user=watcher.user).exists()


def test_a_watcher_cannot_join_an_open_private_game(new_game, make_player):
    from games import services
    from games.models import Seat
    from games.services.watchers import watchers_grant

    creator, watcher = make_player(), make_player()
    game = services.game_create(
        creator=creator.user, map="germany", max_players=3, options={"private": True}
    )
    watchers_grant(game_id=game.pk, users=[watcher.user])
    assert watcher.get(f"/api/v1/games/{game.pk}/").status_code == 200
    r = watcher.post(f"/api/v1/games/{game.pk}/join/")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_invited")
    assert not Seat.objects.filter(game=game, user=watcher.user).exists()


def test_a_watched_game_is_not_among_the_watchers_own_games(new_game, make_player):
    """Lists of what one may see list it (as an invitee's); lists of the games one plays do
    not: ``?mine``, the home page's own games, the profile, the calendar, the next game."""
    gid, _ps, watcher, stranger = _private(new_game, make_player)
    listed = [g["id"] for g in watcher.get("/api/v1/games/?status=running").json()["results"]]
    assert gid in listed
    assert gid not in [g["id"] for g in stranger.get("/api/v1/games/").json()["results"]]
    mine = watcher.get("/api/v1/games/?mine=true").json()["results"]
    assert gid not in [g["id"] for g in mine]
    profile = watcher.get(f"/api/v1/players/{watcher.user.username}/").json()
    assert gid not in [g["id"] for g in profile["current_games"]]
    assert watcher.get("/api/v1/games/next/").status_code in (204, 404)
    page = Client()
    page.force_login(watcher.user)
    assert page.get(f"/games/{gid}/calendar.ics").status_code == 404
    home = page.get("/").context
    assert gid not in [row["game"].pk for row in [*home["mine"], *home["finished"]]]
    assert gid in [row["game"].pk for row in home["running"]]  # "Games in progress"


def test_a_watcher_may_follow_the_game_on_the_stream(new_game, make_player, settings):
    settings.STREAM_FALLBACK_SECONDS = 0.01
    settings.STREAM_REDIS_URL = ""
    gid, _ps, watcher, stranger = _private(new_game, make_player)
    got = {}
    for who, game in ((stranger, gid), (stranger, 10**9), (watcher, gid)):
        r = who.get(f"/api/v1/stream/?game={game}")
        if getattr(r, "streaming", False):
            r.close()
        got[who.user.pk, game] = r.status_code
    assert got[stranger.user.pk, gid] == got[stranger.user.pk, 10**9] == 404
    assert got[watcher.user.pk, gid] == 200
