"""A search bot's move is computed outside the game's row lock and applied only if the game has
not moved since the snapshot it was computed from (games/deadlines/sweep.py): a move made stale
by a change during the computation is dropped and computed again; under the lock a search seat
is never searched (the sweep leaves it to the bot task)."""

from __future__ import annotations

import pytest

import powergrid

pytestmark = pytest.mark.django_db


def _bot_awaited(make_player, level: str, **options):
    """A started two-seat game with a bot of ``level``, played by the person until the bot is
    awaited; returns (game, bot seat)."""
    from games import services
    from games.models import Game, Seat
    from games.services.moves import move_submit

    p = make_player()
    game = services.game_create(
        creator=p.user,
        map="germany",
        max_players=2,
        options={"auto_start": False, "sheets": False, **options},
    )
    services.game_bot_add(game_id=game.pk, user=p.user, kind=level)
    services.game_start(game_id=game.pk, user=p.user)
    seat = Seat.objects.get(game=game, bot_controlled=True)
    for _ in range(10):
        game = Game.objects.get(pk=game.pk)
        if seat.seat in game.to_act:
            break
        me = game.to_act[0]
        action = powergrid.default_action(powergrid.from_json(game.state_json), me)
        move_submit(game_id=game.pk, user=p.user, expected_seq=game.seq, source="api",
                    action=action)  # fmt: skip
    assert seat.seat in game.to_act
    return game, seat


def test_a_move_made_stale_during_its_computation_is_not_applied(make_player, monkeypatch):
    """While a bot's move is being computed, the game moves (here: another worker makes that
    seat's move). The move computed from the old snapshot is dropped; the task computes again
    from the new position (the other seat, a search bot too, is awaited) and applies that
    move, at the seq it was computed for."""
    from games.deadlines import sweep
    from games.models import Game, Move, Seat
    from games.services.moves import move_apply_system

    game, _seat = _bot_awaited(make_player, "expert", bot_level="expert")
    # The person's seat is taken over: every seat is an expert bot's.
    Seat.objects.filter(game=game).update(bot_controlled=True)
    start = game.seq
    computed: list[tuple[int, int, dict]] = []
    real = sweep._bot_action

    def racing(g, state, s):
        action = real(g, state, s)
        computed.append((g.seq, s.seat, action))
        if len(computed) == 1:
            # Meanwhile the game moves: the seat's move is made by someone else.
            other = powergrid.default_action(state, s.seat)
            move_apply_system(game=g.pk, seat=s.seat, action=other, source="bot",
                              expected_seq=g.seq)  # fmt: skip
        return action

    monkeypatch.setattr(sweep, "_bot_action", racing)
    monkeypatch.setattr(sweep, "level_bot_for", _fast_bot(sweep.level_bot_for))
    made = sweep.game_handle_due(game_id=game.pk, wait=True)

    moves = list(Move.objects.filter(game=game, seq__gt=start).order_by("seq"))
    assert Game.objects.get(pk=game.pk).seq == start + 2
    assert [c[0] for c in computed] == [start, start + 1]  # computed again after the change
    assert made == 1
    # The stale move was not applied: the move after the change is the one computed from it.
    _meanwhile, applied = moves
    assert (applied.seq, applied.seat, applied.action) == (start + 2, *computed[1][1:])
    assert applied.source == "bot"


def _fast_bot(real):
    """``level_bot_for`` with a tiny search budget (a test of the lock, not of the search)."""
    from powergrid.levels import LevelBot
    from powergrid.search import Budget

    def make(game, seat, state):
        bot = real(game, seat, state)
        if isinstance(bot, LevelBot) and bot.level.budget is not None:
            return LevelBot(bot.level.name, seed=1, budget=Budget(2, 1e9))
        return bot

    return make


def test_a_premade_move_for_an_old_seq_is_dropped_under_the_lock(make_player, monkeypatch):
    """Under the lock, a search seat is played only with a move computed at the game's current
    seq; an older one leaves the game untouched and the seat due (deferred), and no search
    runs under the lock."""
    from games.deadlines import sweep
    from games.models import Game, Move, Seat

    game, seat = _bot_awaited(make_player, "advanced")
    start = game.seq
    stale = {(game.pk, seat.seat, start - 1): {"type": "pass_auction"}}

    def no_search(*a, **k):
        raise AssertionError("searched under the lock")

    monkeypatch.setattr(sweep, "level_bot_for", no_search)
    due = list(Seat.objects.filter(game=game, seat=seat.seat))
    report = sweep.SweepReport()
    sweep._handle_claim(
        sweep.Claim(games=[game], due={game.pk: due}), now=None, report=report, premade=stale
    )
    assert report.moves == 0
    assert report.deferred == [game.pk]
    assert Game.objects.get(pk=game.pk).seq == start
    assert not Move.objects.filter(game=game, seq__gt=start).exists()


def test_the_sweep_leaves_a_search_seat_to_the_bot_task(
    make_player, monkeypatch, published, django_capture_on_commit_callbacks
):
    """The sweep does not search while it holds its chunk's locks: the due search seat is left
    due and the bot task is queued for it after the commit, which plays it outside the lock."""
    from games.deadlines import sweep
    from games.models import Game, Move

    game, _seat = _bot_awaited(make_player, "expert")
    start = game.seq
    calls: list[int] = []

    def no_search(g, s, state):
        calls.append(g.seq)
        raise AssertionError("searched under the lock")

    monkeypatch.setattr(sweep, "level_bot_for", no_search)
    published.calls.clear()
    # The set-up's own callbacks wait on the test's transaction, which never commits: the bot
    # task is queued once per game and transaction (``turns.queue_bot_on_commit``), so the
    # sweep's would be taken for one of them.
    from django.db import connection

    connection.run_on_commit.clear()
    with django_capture_on_commit_callbacks(execute=True):
        report = sweep.deadlines_sweep()
    assert calls == []
    assert report.deferred == [game.pk]
    assert report.moves == 0
    assert Game.objects.get(pk=game.pk).seq == start
    assert not Move.objects.filter(game=game, seq__gt=start).exists()
    assert ("game_play_due", (game.pk,)) in published.calls
