"""Past states from checkpoints (games.checkpoints), kept in the Django cache: never other than
the log replayed from the start, for every seq; a damaged, missing or foreign checkpoint falls
back to the log and is written again; past a take-back too. (That another process reads them:
tests/integration/test_checkpoints_shared.py, with Redis.)"""

from __future__ import annotations

import zlib

import pytest
from apihelpers import bot_action, seat_players

pytestmark = pytest.mark.django_db


def _played(new_game, moves: int):
    from games.models import Game
    from games.services.moves import move_submit
    from powergrid.heuristic import HeuristicBot

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    bot = HeuristicBot()
    for _ in range(moves):
        game = Game.objects.get(pk=gid)
        if game.status != Game.Status.RUNNING:
            break
        seat = game.to_act[0]
        move_submit(
            game_id=gid,
            user=seats[seat].user,
            action=bot_action(gid, seat, bot),
            expected_seq=game.seq,
            source="api",
        )
    return Game.objects.get(pk=gid)


def _same(game, seq) -> bool:
    from games import engine
    from games.selectors import history

    fast = engine.to_json(history._state_at(game, seq))
    return fast == engine.to_json(history._state_at_from_scratch(game, seq))


class _Counted:
    """Counts the moves ``engine.replay`` applies (a replay from a checkpoint applies few)."""

    def __init__(self, monkeypatch) -> None:
        from games import engine

        self.moves = 0
        real = engine.replay

        def replay(initial, log):
            log = list(log)
            self.moves += len(log)
            return real(initial, log)

        monkeypatch.setattr(engine, "replay", replay)


def test_every_past_state_from_checkpoints_is_the_full_replays(new_game, monkeypatch):
    from games import checkpoints
    from games.selectors import history

    game = _played(new_game, 90)
    every = checkpoints.EVERY
    assert game.seq >= 3 * every
    checkpoints.forget(game.pk, game.seq)
    for seq in [game.seq - 1, *range(0, game.seq, 3)]:  # the latest first: all written at once
        assert _same(game, seq), seq
    kept = checkpoints.stored(game.pk, game.seq)
    assert kept == list(range(every, game.seq, every))
    # Each past state now replays fewer than EVERY moves, from the checkpoint before it.
    counted = _Counted(monkeypatch)
    for seq in (every + 1, 2 * every + every - 1, game.seq - 1):
        counted.moves = 0
        history._state_at(game, seq)
        assert counted.moves == seq % every, seq


def test_a_damaged_or_missing_checkpoint_falls_back_to_the_log(new_game):
    from django.core.cache import cache

    from games import checkpoints, engine
    from games.selectors import history

    game = _played(new_game, 70)
    checkpoints.forget(game.pk, game.seq)
    seq = 2 * checkpoints.EVERY + 5
    assert _same(game, seq)
    name = checkpoints._name(game.pk, 2 * checkpoints.EVERY)
    digest, _packed = kept = cache.get(name)
    # Another position's state under this checkpoint's digest: its text does not match.
    other = engine.to_json(history._state_at_from_scratch(game, 3)).encode()
    for damaged in (
        (digest, zlib.compress(other)),
        (digest, zlib.compress(b"{not json")),
        (digest, b"not zlib"),
        "not a pair",
        None,
    ):
        cache.set(name, damaged)
        assert _same(game, seq)
        assert cache.get(name) == kept  # written again from the log
    checkpoints.forget(game.pk, game.seq)  # missing: rebuilt
    assert _same(game, seq)
    assert checkpoints.stored(game.pk, seq) == [checkpoints.EVERY, 2 * checkpoints.EVERY]


def _bot_log(seed: int, moves: int, *, stamp: str = "a", default_from: int = 0):
    """(first state, log) of a 3-player game the heuristic bot plays for ``moves`` moves (the
    engine's default move from ``default_from`` on, if given); each entry's row stamped."""
    import powergrid
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    first = state = powergrid.new_game(map="germany", players=3, seed=seed)
    log = []
    for seq in range(1, moves + 1):
        seat = powergrid.to_act(state)[0]
        if default_from and seq >= default_from:
            action = powergrid.default_action(state, seat)
        else:
            action = bot.choose(state, seat)
        log.append((seq, seat, action, f"{stamp}{seq}" if seq >= default_from else f"a{seq}"))
        state = powergrid.apply(state, seat, action)
    return first, log


def _check(game_id: int, seed: int, first, log, seqs) -> None:
    """Each position of ``seqs``, from checkpoints, is the plain replay's."""
    from games import checkpoints, engine

    for at in seqs:
        entries = [e for e in log if e[0] <= at]
        got = checkpoints.state_at(
            (game_id, seed),
            at,
            lambda since, e=entries: [x for x in e if x[0] >= since],
            lambda: first,
        )
        want = engine.replay(first, [x[:3] for x in entries])
        assert engine.to_json(got) == engine.to_json(want), (seed, at)


def test_another_games_checkpoints_under_the_same_number_are_not_used():
    """A database made again numbers its games from 1: the cache's checkpoints of the old game
    numbered so (another seed, another log) are not trusted."""
    from games import checkpoints

    checkpoints.forget(-5, 60)
    for seed in (3, 4, 3):
        first, log = _bot_log(seed, 60)
        _check(-5, seed, first, log, (59, 45, 21, 41, 59))
    assert checkpoints.stored(-5, 60) == [20, 40]


def test_a_game_restored_from_a_backup_that_went_on_otherwise_is_replayed_from_its_log():
    """The same game (number, seed, first moves) restored from a backup taken at move 30, and
    played on otherwise: the checkpoints written after move 30 before the restore are not used
    (the log's rows there are new), those before it are."""
    from django.core.cache import cache

    from games import checkpoints

    checkpoints.forget(-6, 80)
    first, log = _bot_log(5, 80)
    _check(-6, 5, first, log, (79,))
    assert checkpoints.stored(-6, 80) == [20, 40, 60]
    # The same move at 60 in a row made after the restore: not the row it was written for.
    kept = cache.get(checkpoints._name(-6, 60))
    seq, seat, action, stamp = log[59]
    assert checkpoints._sound(kept, checkpoints._anchor(5, (seq, seat, action, stamp)))
    assert not checkpoints._sound(kept, checkpoints._anchor(5, (seq, seat, action, "new")))
    _first, other = _bot_log(5, 80, stamp="restored", default_from=31)
    assert [e[:3] for e in other[40:60]] != [e[:3] for e in log[40:60]]  # it went otherwise
    _check(-6, 5, first, other, (25, 79, 65, 45))


def test_checkpoints_past_a_take_back_are_the_full_replays():
    """A log with take-backs: a checkpoint before one is not used for a position after it (the
    take-back may cancel moves before the checkpoint); every position is the plain replay's."""
    import powergrid
    from games import checkpoints, engine
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    first = powergrid.new_game(map="germany", players=3, seed=41)
    state, log, seq, stack = first, [], 0, []
    while seq < 130:
        seq += 1
        if seq in (37, 40, 81):  # take back the latest standing move(s)
            cancels = stack[-2:] if seq == 81 else stack[-1:]
            log.append((seq, 0, engine.takeback_entry(cancels, []), seq))
            del stack[-len(cancels) :]
            state = engine.replay(first, [e[:3] for e in log])
            continue
        seat = powergrid.to_act(state)[0]
        action = bot.choose(state, seat)
        log.append((seq, seat, action, seq))
        stack.append(seq)
        state = powergrid.apply(state, seat, action)
    checkpoints.forget(-7, seq)
    _check(-7, 41, first, log, [seq, *range(1, seq, 2), *range(seq, 0, -3)])
    assert {20, 40, 60, 100, 120} <= set(checkpoints.stored(-7, seq))


def test_a_cache_that_refuses_writes_costs_the_checkpoints_only(monkeypatch):
    """Redis full (it refuses writes): the past state is the log's, from the start."""
    from django.core.cache import cache

    from games import checkpoints

    def refused(*args, **kwargs):
        raise RuntimeError("OOM command not allowed when used memory > 'maxmemory'")

    monkeypatch.setattr(cache, "set_many", refused)
    checkpoints.forget(-8, 60)
    first, log = _bot_log(6, 60)
    _check(-8, 6, first, log, (59, 41))
    assert checkpoints.stored(-8, 60) == []
