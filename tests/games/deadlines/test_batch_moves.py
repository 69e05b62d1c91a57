"""The sweeper's batched system moves (``move_apply_system_batch`` + ``turns.on_states_changed``)
do exactly what the moves one at a time do: same Move rows, states, seats and outbox rows."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine
from games.deadlines import sweep
from games.models import Game, Move, Notification, Seat
from games.services import moves
from games.services.errors import MoveRejected, StaleState

pytestmark = pytest.mark.django_db


def _games(n: int, players: int = 2, **options: Any) -> list[int]:
    from django.contrib.auth import get_user_model

    from games.services.lobby import game_create, game_join

    User = get_user_model()
    ids = []
    for g in range(n):
        users = [
            User.objects.create_user(
                username=f"m{g}x{i}x{len(ids)}{id(ids)}", email=f"m{g}{i}@x.org"
            )
            for i in range(players)
        ]
        game = game_create(
            creator=users[0],
            map="germany",
            max_players=players,
            # Move by move: turns' deadlines (round sheets': tests/games/sheets/).
            options={"turn_hours": 12, "sheets": False, **options},
        )
        for u in users[1:]:
            game_join(game_id=game.pk, user=u)
        ids.append(game.pk)
    return ids


def _snapshot() -> dict[str, Any]:
    return {
        "games": list(Game.objects.values("id", "seq", "state_json", "to_act", "status")),
        "seats": list(
            Seat.objects.values(
                "id", "deadline", "reminder_at", "timeouts_in_row", "bot_controlled"
            )
        ),
    }


def _restore(snap: dict[str, Any]) -> None:
    Move.objects.all().delete()
    Notification.objects.all().delete()
    for g in snap["games"]:
        Game.objects.filter(pk=g["id"]).update(**{k: v for k, v in g.items() if k != "id"})
    for s in snap["seats"]:
        Seat.objects.filter(pk=s["id"]).update(**{k: v for k, v in s.items() if k != "id"})
    engine._cache.clear()


def _outcome(now: Any) -> dict[str, Any]:
    def rel(v: Any) -> Any:  # deadlines relative to the sweep's clock
        return None if v is None else round((v - now).total_seconds())

    return {
        "moves": sorted(
            Move.objects.values_list("game_id", "seq", "seat", "action", "source", "user_id")
        ),
        "games": sorted(Game.objects.values_list("id", "seq", "state_json", "to_act", "status")),
        "seats": sorted(
            (s.pk, rel(s.deadline), rel(s.reminder_at), s.timeouts_in_row, s.bot_controlled)
            for s in Seat.objects.all()
        ),
        "outbox": sorted(
            Notification.objects.values_list(
                "recipient_id", "game_id", "kind", "payload", "dedupe_key", "status"
            ),
            key=repr,
        ),
    }


def test_a_chunk_of_games_does_what_chunks_of_one_game_do(settings):
    # timeouts_before_bot=1: the first timeout hands the seat to the bot, so the bot's move and
    # the bot_took_over notices are compared too; 3 players for more outbox rows.
    _games(5, players=3, timeouts_before_bot=1)
    snap = _snapshot()
    due = max(Seat.objects.exclude(deadline=None).values_list("deadline", flat=True))
    now = due + timedelta(minutes=1)
    results = {}
    for batch in (True, False):
        settings.DEADLINE_SWEEP_CHUNK = 200 if batch else 1
        _restore(snap)
        with time_machine.travel(now, tick=False):
            report = sweep.deadlines_sweep()
        results[batch] = (report.found, report.handled_games, report.moves, _outcome(now))
    assert results[True] == results[False]
    found, handled, made, outcome = results[True]
    assert (found, handled) == (5, 5)
    assert made >= 5
    assert {m[4] for m in outcome["moves"]} >= {"timeout"}
    assert any(n[2] == "bot_took_over" for n in outcome["outbox"])


def test_a_rejected_move_leaves_its_game_alone_and_the_others_move(monkeypatch):
    bad, *good = _games(3)
    real = engine.default_action

    def default_action(state: Any, seat: int) -> dict[str, Any]:
        if getattr(state, "_bad", False):
            return {"type": "no_such_action"}
        return real(state, seat)

    original_load = engine.state_load

    def state_load(**kw: Any) -> Any:
        state = original_load(**kw)
        if kw["game_id"] == bad:
            state = _Flagged(state)
        return state

    monkeypatch.setattr(engine, "default_action", default_action)
    monkeypatch.setattr(engine, "state_load", state_load)
    before = list(Seat.objects.filter(game_id=bad).values_list("deadline", "timeouts_in_row"))
    due = max(Seat.objects.exclude(deadline=None).values_list("deadline", flat=True))
    with time_machine.travel(due + timedelta(minutes=1), tick=False):
        report = sweep.deadlines_sweep()
    assert (report.moves, report.errors) == (2, 1)
    assert not Move.objects.filter(game_id=bad).exists()
    assert Game.objects.get(pk=bad).seq == 0
    assert list(Seat.objects.filter(game_id=bad).values_list("deadline", "timeouts_in_row")) == (
        before
    )
    for gid in good:
        assert Move.objects.get(game_id=gid).source == "timeout"
    assert Notification.objects.filter(kind="timeout").count() == 2


class _Flagged:
    """An engine state that makes the patched default_action propose an illegal action."""

    _bad = True

    def __init__(self, state: Any) -> None:
        self._state = state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def test_batch_checks_each_item_like_the_single_path():
    gids = _games(3)
    with transaction.atomic():
        games = list(Game.objects.select_for_update().filter(pk__in=gids).order_by("pk"))
        items = []
        for g in games:
            state = engine.state_load(game_id=g.pk, seed=g.seed, seq=g.seq, state_json=g.state_json)
            seat = int(g.to_act[0])
            items.append(moves.SystemMove(g, seat, engine.default_action(state, seat), "timeout"))
        items[1].expected_seq = 5  # stale
        items[2].action = {"type": "bid", "amount": -1}  # illegal
        with CaptureQueriesContext(connection) as q:
            out = moves.move_apply_system_batch(items)
        assert isinstance(out[0], moves.MoveResult)
        assert isinstance(out[1], StaleState)
        assert isinstance(out[2], MoveRejected)
        # seats, one INSERT of moves, one UPDATE of games, one of seats, one of the outbox; then
        # the stream's log (games.stream.log.record_many, the batch's last write): the advisory
        # lock that keeps the log's ids in commit order, and one INSERT of its events
        assert len(q.captured_queries) <= 7
    assert list(Move.objects.values_list("game_id", "source")) == [(gids[0], "timeout")]
    assert list(Game.objects.order_by("pk").values_list("seq", flat=True)) == [1, 0, 0]


def test_batch_query_count_does_not_grow_with_the_number_of_games():
    gids = _games(8)

    def run(ids: list[int]) -> int:
        with transaction.atomic():
            games = list(Game.objects.select_for_update().filter(pk__in=ids))
            items = []
            for g in games:
                st = engine.state_load(
                    game_id=g.pk, seed=g.seed, seq=g.seq, state_json=g.state_json
                )
                seat = int(g.to_act[0])
                items.append(moves.SystemMove(g, seat, engine.default_action(st, seat), "timeout"))
            with CaptureQueriesContext(connection) as q:
                out = moves.move_apply_system_batch(items)
            assert all(isinstance(r, moves.MoveResult) for r in out)
            return len(q.captured_queries)

    assert run(gids[:2]) == run(gids[2:])


def test_if_the_batch_fails_as_a_whole_the_moves_are_made_one_at_a_time(monkeypatch):
    gids = _games(3)

    def broken(items: Any) -> Any:
        Move.objects.bulk_create(
            [Move(game=it.game, seq=it.game.seq + 1, seat=it.seat, action={}, source="timeout")
             for it in items]
        )  # fmt: skip
        raise RuntimeError("a bug after writing")

    monkeypatch.setattr(moves, "move_apply_system_batch", broken)
    due = max(Seat.objects.exclude(deadline=None).values_list("deadline", flat=True))
    with time_machine.travel(due + timedelta(minutes=1), tick=False):
        report = sweep.deadlines_sweep()
    assert (report.moves, report.errors) == (3, 0)
    for gid in gids:  # the broken batch's rows were rolled back with its savepoint
        assert list(Move.objects.filter(game_id=gid).values_list("seq", "source")) == [
            (1, "timeout")
        ]
        assert Move.objects.get(game_id=gid).action
