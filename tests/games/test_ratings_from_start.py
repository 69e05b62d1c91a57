"""Only games played from the start count for ratings (``games.ratings.counts_for_ratings``),
people's and levels' alike: a game begun from a position (``Game.start_state``: every practice
game, from any move of a finished game or from a running game now, at every level) moves no
rating, whether rated as it ends, by the recompute, or counted on a page; and the practice
games a player may make are limited per hour (429 ``throttled``)."""

from __future__ import annotations

import pytest
from apihelpers import bot_action, play_to_end, seat_players

from powergrid.levels import LEVEL_NAMES

pytestmark = pytest.mark.django_db


def _ratings():
    from games.models import Rating

    return {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}


def _finish_practice(player, pid):
    """The practice game to its end: the player's seat plays the heuristic bot's move through
    the API, the bots' seats are played as the worker plays them."""
    from games.deadlines.sweep import game_handle_due
    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    mine = Game.objects.get(pk=pid).seats.get(user=player.user).seat
    for _ in range(3000):
        game = Game.objects.get(pk=pid)
        if game.status == "finished":
            return game
        if mine in game.to_act:
            r = player.post(
                f"/api/v1/games/{pid}/moves/",
                {"action": bot_action(pid, mine, bot), "expected_seq": game.seq},
            )
            assert r.status_code == 201, r.json()
        else:
            assert game_handle_due(game_id=pid, wait=True) > 0
    raise AssertionError("the practice game did not end")


def test_the_predicate_is_the_start_state(make_player):
    """The class is "began from a position", whatever else the game is: a game with a start
    state does not count even if it were not marked practice; an ordinary one does."""
    from games.models import Game
    from games.ratings import counts_for_ratings

    assert counts_for_ratings(Game(start_state=""))
    assert not counts_for_ratings(Game(start_state="{}"))
    assert not counts_for_ratings(Game(start_state="{}", practice=False))
    assert not counts_for_ratings(Game(practice=True))


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_practice_games_from_a_won_position_move_no_rating(new_game, settings, level):
    """The outsider's attack, at every level: practice from a finished game's late position,
    played to its end through the API and the worker. No person's and no level's rating moves;
    the game is settled once (``RatedGame``, not rated, no changes); the recompute agrees; the
    level's page counts no game."""
    from games.models import Game, RatedGame
    from games.ratings import level_ratings, ratings_recompute

    settings.BOT_BUDGET_SCALE = 0.05
    gid, ps = new_game(players=2)
    play_to_end(gid, ps)
    before = _ratings()
    assert before  # the game from the start rated its players
    end = Game.objects.get(pk=gid).seq
    for back in (2, 6):
        r = ps[0].post(f"/api/v1/games/{gid}/practice/", {"seq": end - back, "level": level})
        assert r.status_code == 201, r.content
        pid = r.json()["id"]
        game = _finish_practice(ps[0], pid)
        settled = RatedGame.objects.get(game=game)
        assert (settled.rated, settled.changes) == (False, {})
        assert _ratings() == before
        assert level not in level_ratings()
    assert ratings_recompute() == 1
    assert _ratings() == before
    assert level not in level_ratings()


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_practice_from_a_running_game_moves_no_rating(new_game, level):
    """From one's own running game, now, at every level: rated directly as if it ended."""
    from games.models import Game, Seat
    from games.ratings import game_rate, level_ratings

    gid, ps = new_game(players=3)
    r = ps[0].post(f"/api/v1/games/{gid}/practice/", {"level": level})
    assert r.status_code == 201, r.content
    game = Game.objects.get(pk=r.json()["id"])
    assert game.start_state
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.status = Game.Status.FINISHED
    made = game_rate(game, list(Seat.objects.filter(game=game).select_related("user__profile")))
    assert made is not None
    assert (made.rated, made.changes) == (False, {})
    assert _ratings() == {}
    assert level_ratings() == {}


def test_a_level_is_still_rated_by_a_game_from_the_start(make_player):
    """The rule leaves the levels' ratings from ordinary games as they were."""
    from games import services
    from games.models import Game
    from games.ratings import game_rate, level_ratings

    p = make_player()
    game = services.game_create(creator=p.user, map="germany", max_players=2)
    services.game_bot_add(game_id=game.pk, user=p.user, kind="expert")
    game = Game.objects.get(pk=game.pk)
    game.status = Game.Status.FINISHED
    game_rate(game, list(game.seats.select_related("user__profile")))
    assert level_ratings()["expert"].games == 1


def test_practice_games_are_limited_per_hour(new_game, settings):
    """PRACTICE_GAMES_PER_HOUR per player (API and page alike): beyond, 429 ``throttled`` with
    ``details.retry_after``; no game is made; an hour later they may again."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.models import Game

    settings.PRACTICE_GAMES_PER_HOUR = 3
    gid, ps = new_game(players=3)
    me = ps[0]
    for _ in range(3):
        assert me.post(f"/api/v1/games/{gid}/practice/", {}).status_code == 201
    n = Game.objects.filter(practice=True).count()
    r = me.post(f"/api/v1/games/{gid}/practice/", {})
    assert r.status_code == 429, r.content
    err = r.json()["error"]
    assert err["code"] == "throttled"
    assert 0 < err["details"]["retry_after"] <= 3600
    assert Game.objects.filter(practice=True).count() == n
    # Another player is not held back by it.
    assert ps[1].post(f"/api/v1/games/{gid}/practice/", {}).status_code == 201
    with time_machine.travel(timezone.now() + timedelta(hours=1, seconds=1)):
        assert me.post(f"/api/v1/games/{gid}/practice/", {}).status_code == 201
    assert seat_players(gid, ps)
