"""The sweeper claims due games in bulk: one locking statement for many games, games another
transaction holds are skipped (not waited for), due seats re-read under the lock."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from duegames import started_games as _games

from games.deadlines import sweep
from games.models import Game, Move, Notification, Seat


def _latest_deadline():
    return max(Seat.objects.filter(deadline__isnull=False).values_list("deadline", flat=True))


@pytest.mark.django_db(transaction=True)
def test_bulk_claim_skips_games_another_transaction_holds():
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's")
    held, *free = _games(3)
    holding = threading.Event()
    release = threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                list(Game.objects.select_for_update().filter(pk=held))  # a player moving
                holding.set()
                release.wait(20)
        finally:
            connections.close_all()

    t = threading.Thread(target=holder)
    t.start()
    try:
        assert holding.wait(10)
        with time_machine.travel(_latest_deadline() + timedelta(minutes=1), tick=False):
            with transaction.atomic():
                claim = sweep.due_games_claim()
                assert sorted(g.pk for g in claim.games) == sorted(free)
                assert all(len(claim.due[g]) == 1 for g in free)
            report = sweep.deadlines_sweep()
        assert report.moves == 2
        assert not Move.objects.filter(game_id=held).exists()
    finally:
        release.set()
        t.join(20)
    with time_machine.travel(_latest_deadline() + timedelta(minutes=1), tick=False):
        # The held game is still due; the others' next seats too by now.
        assert sweep.deadlines_sweep().moves == 3
    assert Move.objects.filter(game_id=held, source="timeout").count() == 1
    assert Notification.objects.filter(kind="timeout").count() == 5


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_take_disjoint_games():
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's")
    ids = _games(6)
    due = _latest_deadline() + timedelta(minutes=1)
    got: list[list[int]] = []
    inside = threading.Barrier(2)
    errors: list[BaseException] = []

    def sweeper() -> None:
        try:
            with time_machine.travel(due, tick=False), transaction.atomic():
                # Each locks up to 4 of the 6 due games while the other tries.
                claim = sweep.due_games_claim(limit=4)
                got.append([g.pk for g in claim.games])
                inside.wait(10)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    a, b = got
    assert not set(a) & set(b)
    assert set(a) | set(b) <= set(ids)
    assert len(a) + len(b) == 6


@pytest.mark.django_db
def test_bulk_claim_is_two_statements_and_handles_chunks(settings):
    settings.DEADLINE_SWEEP_CHUNK = 4
    ids = _games(10)
    with time_machine.travel(_latest_deadline() + timedelta(minutes=1), tick=False):
        with CaptureQueriesContext(connection) as q, transaction.atomic():
            claim = sweep.due_games_claim()
        selects = [x["sql"] for x in q.captured_queries if x["sql"].startswith("SELECT")]
        assert len(selects) == 2
        assert len(claim.games) == 10
        report = sweep.deadlines_sweep()
    assert (report.found, report.handled_games, report.moves, report.errors) == (10, 10, 10, 0)
    for gid in ids:
        assert Move.objects.get(game_id=gid).source == "timeout"


@pytest.mark.django_db
def test_deadlines_of_a_stopped_game_are_cleared_by_the_sweep():
    gid, other = _games(2)
    Game.objects.filter(pk=gid).update(status=Game.Status.FINISHED)
    with time_machine.travel(_latest_deadline() + timedelta(minutes=1), tick=False):
        report = sweep.deadlines_sweep()
    assert report.moves == 1
    assert not Seat.objects.filter(game_id=gid, deadline__isnull=False).exists()
    assert Move.objects.filter(game_id=other, source="timeout").count() == 1
