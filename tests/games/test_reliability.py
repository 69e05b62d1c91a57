"""The reliability figure (``games.players.reliability``): a reply is timed from the moment the
seat became awaited (the game's start for the first movers, the move that opened a phase where
everyone moves at once, not the move another player made in it meanwhile); the server's own bots
have left no game to the bot; a seat the bot took over before its player ever moved is a game
left to the bot, and the rating leaves the game out as it does any game the bot played in."""

from __future__ import annotations

import datetime as dt

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


def _default(gid: int, seat: int) -> dict:
    import powergrid
    from games.models import Game

    return powergrid.default_action(powergrid.from_json(Game.objects.get(pk=gid).state_json), seat)


def test_the_first_reply_counts_from_the_start_of_the_game(new_game, time_machine):
    from games.models import Game
    from games.players import reliability
    from games.services.moves import move_apply_system

    time_machine.move_to(START, tick=False)
    gid, ps = new_game(players=2)
    seats = seat_players(gid, ps)
    first = Game.objects.get(pk=gid).to_act[0]
    time_machine.move_to(START + dt.timedelta(hours=7), tick=False)
    move_apply_system(game=gid, seat=first, action=_default(gid, first), source="web")
    rel = reliability(seats[first].user)
    assert rel.turns == 1
    assert rel.median_reply_hours == 7.0


def test_a_reply_in_phase_five_counts_from_when_the_phase_opened(new_game, time_machine):
    """Phase 5 awaits every player at once: the second to power was asked when the phase
    opened, not when the first powered."""
    from games.models import Game
    from games.players import reliability
    from games.services.moves import move_apply_system
    from powergrid.state import BUREAUCRACY

    time_machine.move_to(START, tick=False)
    gid, ps = new_game(players=2, options={"timeouts_before_bot": 0})
    seats = seat_players(gid, ps)
    quick, slow = 0, 1  # ``slow`` times out until phase 5, where it replies by hand
    at = START
    import powergrid

    timeouts = 0
    for _ in range(200):
        g = Game.objects.get(pk=gid)
        if powergrid.from_json(g.state_json).phase == BUREAUCRACY:
            break
        seat = g.to_act[0]
        at += dt.timedelta(hours=1)
        time_machine.move_to(at, tick=False)
        source = "web" if seat == quick else "timeout"
        timeouts += source == "timeout"
        move_apply_system(game=gid, seat=seat, action=_default(gid, seat), source=source)
    else:
        raise AssertionError("phase 5 never came")
    assert sorted(Game.objects.get(pk=gid).to_act) == [quick, slow]
    opened = at
    time_machine.move_to(opened + dt.timedelta(hours=1), tick=False)
    move_apply_system(game=gid, seat=quick, action=_default(gid, quick), source="web")
    time_machine.move_to(opened + dt.timedelta(hours=3), tick=False)
    move_apply_system(game=gid, seat=slow, action=_default(gid, slow), source="web")

    rel = reliability(seats[slow].user)
    assert (rel.turns, rel.timed_out, rel.on_time) == (timeouts + 1, timeouts, 1)
    assert rel.median_reply_hours == 3.0  # not 2.0: the time since the other player powered
    assert reliability(seats[quick].user).median_reply_hours == 1.0


def test_a_server_bot_has_left_no_game_to_the_bot(make_player, client):
    from games import services
    from games.models import Seat
    from games.players import reliability

    p = make_player()
    game = services.game_create(creator=p.user, map="germany", max_players=2)
    seat = services.game_bot_add(game_id=game.pk, user=p.user)
    bot = Seat.objects.select_related("user").get(pk=seat.pk).user
    rel = reliability(bot)
    assert rel.abandoned == 0
    assert (rel.turns, rel.percent) == (0, None)
    assert "left to the bot" not in client.get(f"/players/{bot.username}/").content.decode()
    assert reliability(p.user).abandoned == 0


def test_a_seat_the_bot_took_before_its_player_moved_is_left_to_the_bot_and_ranked_last(
    new_game, time_machine
):
    """The rule of docs/RATINGS.md (``games.rating_rule``, issue 42): a game stays rated when a
    seat times out; its player, whom the bot took over from and who never came back, is a leaver
    and ranked last, the one who played on is rated above them. The reliability figure counts
    that seat as a game left to the bot (its player let it time out, without a move)."""
    from games.models import Game, RatedGame, Rating, Seat
    from games.players import reliability
    from games.services.moves import move_apply_system

    time_machine.move_to(START, tick=False)
    gid, ps = new_game(players=2, options={"timeouts_before_bot": 1})
    seats = seat_players(gid, ps)
    absent = Game.objects.get(pk=gid).to_act[0]
    move_apply_system(game=gid, seat=absent, action=_default(gid, absent), source="timeout")
    assert Seat.objects.get(game_id=gid, seat=absent).bot_controlled
    rel = reliability(seats[absent].user)
    assert (rel.abandoned, rel.turns, rel.timed_out) == (1, 1, 1)
    assert reliability(seats[1 - absent].user).abandoned == 0
    # The bot plays the seat from now on, the other player by hand: the game ends rated, the
    # player who timed out last (whatever the bot then did with their seat).
    import powergrid
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    for _ in range(3000):
        g = Game.objects.get(pk=gid)
        if g.status == "finished":
            break
        seat = g.to_act[0]
        action = bot.choose(powergrid.from_json(g.state_json), seat)
        source = "bot" if seat == absent else "web"
        move_apply_system(game=gid, seat=seat, action=action, source=source)
    assert Game.objects.get(pk=gid).status == "finished"
    assert RatedGame.objects.get(game_id=gid).rated is True
    mu = {r.user_id: r.mu for r in Rating.objects.all()}
    assert set(mu) == {seats[0].user.pk, seats[1].user.pk}
    assert mu[seats[absent].user.pk] < 25 < mu[seats[1 - absent].user.pk]
    assert reliability(seats[absent].user).abandoned == 1


def test_each_holder_of_a_seat_keeps_their_own_turns(new_game, make_player, time_machine):
    """Issue 42's tenures: the turns of a seat are its holders' own. The player who timed out
    keeps that timeout and the game they left to the bot after a substitute takes the seat;
    the substitute inherits none of it, and their own moves count for them only."""
    from games.models import Game
    from games.players import reliability
    from games.services.moves import move_apply_system

    time_machine.move_to(START, tick=False)
    gid, ps = new_game(players=2, options={"timeouts_before_bot": 1})
    seats = seat_players(gid, ps)
    absent = Game.objects.get(pk=gid).to_act[0]
    other = seats[1 - absent]
    move_apply_system(game=gid, seat=absent, action=_default(gid, absent), source="timeout")
    before = reliability(seats[absent].user)
    assert (before.turns, before.timed_out, before.abandoned) == (1, 1, 1)
    sub = make_player()
    r = sub.post(f"/api/v1/games/{gid}/substitute/", {"seat": absent})
    assert r.status_code == 200, r.content
    fresh = reliability(sub.user)
    assert (fresh.turns, fresh.timed_out, fresh.abandoned) == (0, 0, 0)
    after = reliability(seats[absent].user)
    assert (after.turns, after.timed_out, after.abandoned) == (1, 1, 1)
    # Play on until the substitute has moved in the seat: those turns are theirs.
    for _ in range(40):
        g = Game.objects.get(pk=gid)
        seat = g.to_act[0]
        move_apply_system(game=gid, seat=seat, action=_default(gid, seat), source="web")
        if seat == absent:
            break
    mine = reliability(sub.user)
    assert mine.turns >= 1
    assert mine.timed_out == 0
    assert reliability(seats[absent].user).turns == 1
    assert reliability(other.user).timed_out == 0


def test_a_players_moves_stay_theirs_after_they_resign_and_are_replaced(
    new_game, make_player, time_machine
):
    from games.models import Game
    from games.players import reliability
    from games.services.moves import move_apply_system

    time_machine.move_to(START, tick=False)
    gid, ps = new_game(players=2)
    seats = seat_players(gid, ps)
    leaver = Game.objects.get(pk=gid).to_act[0]
    move_apply_system(game=gid, seat=leaver, action=_default(gid, leaver), source="web")
    made = reliability(seats[leaver].user)
    assert (made.turns, made.timed_out) == (1, 0)
    assert seats[leaver].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    assert reliability(seats[leaver].user).abandoned == 1  # left to the bot
    sub = make_player()
    assert sub.post(f"/api/v1/games/{gid}/substitute/", {"seat": leaver}).status_code == 200
    kept = reliability(seats[leaver].user)
    assert (kept.turns, kept.on_time, kept.abandoned) == (1, 1, 1)
    assert reliability(sub.user).turns == 0
