"""Real Redis, real Celery worker processes, PostgreSQL, an aiosmtpd sink. No eager mode."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connections
from livehelpers import play_default, start_game, use_broker, wait_for

from games import queue, tasks
from games.deadlines import sweep
from games.models import Game, Notification, Seat

pytestmark = [pytest.mark.integration]


def all_sent(expected: int | None = None) -> bool:
    rows = Notification.objects.all()
    if expected is not None and rows.count() != expected:
        return False
    return rows.exists() and not rows.exclude(status="sent").exists()


def test_move_to_email_through_worker_and_latency(
    pg_db, workers, smtp_sink, settings_for_integration
):
    workers("w1")
    gid, users = start_game(3)
    wait_for(lambda: smtp_sink.count() >= 3, 20, what="game-started emails")
    t0 = time.time()
    play_default(gid, users)  # commits; on commit the task is queued on Redis
    wait_for(lambda: any("Your turn" in r.subject for r in smtp_sink.received), 10, 0.01,
             what="turn email")  # fmt: skip
    latency = next(r.at for r in smtp_sink.received if "Your turn" in r.subject) - t0
    print(f"move -> SMTP sink latency: {latency * 1000:.0f} ms")
    assert latency <= 2.0
    assert set(smtp_sink.by_notification().values()) == {1}
    turn = next(r for r in smtp_sink.received if "Your turn" in r.subject)
    raw = turn.raw.decode()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw
    assert turn.message_id.startswith("<notification-")


def test_turn_email_not_stuck_behind_a_backlog_of_queued_tasks(
    pg_db, workers, smtp_sink, redis_server, settings_for_integration
):
    """A burst leaves hundreds of sending tasks queued whose rows are already sent (the on-commit
    tasks of a busy minute, a sweep's re-queue after an outage). A new move's task is queued
    behind them; its email must not wait for all of them: each queued task drains whatever is
    pending, so the next one to run sends it. (Before: 7.9-15.6 s behind 1,000 such tasks.)"""
    import redis

    workers("w1")
    gid, users = start_game(3)
    wait_for(lambda: smtp_sink.count() >= 3, 20, what="game-started emails")
    for _ in range(600):  # tasks for games with nothing pending: each one a claim and an ack
        tasks.notifications_send_game.apply_async((10**9,))
    t0 = time.time()
    play_default(gid, users)
    wait_for(lambda: any("Your turn" in r.subject for r in smtp_sink.received), 10, 0.01,
             what="turn email")  # fmt: skip
    latency = next(r.at for r in smtp_sink.received if "Your turn" in r.subject) - t0
    backlog = redis.Redis.from_url(redis_server.url).llen(queue.EMAIL)
    print(f"move -> SMTP sink latency behind a backlog: {latency * 1000:.0f} ms ({backlog} left)")
    assert latency <= 2.0
    assert backlog > 100  # the email did not wait for the queue to empty
    assert set(smtp_sink.by_notification().values()) == {1}


def test_broker_down_moves_accepted_emails_sent_after_it_returns(
    pg_db, workers, smtp_sink, redis_server, settings_for_integration
):
    workers("w1")
    gid, users = start_game(3)
    wait_for(lambda: smtp_sink.count() >= 3, 20, what="game-started emails")
    redis_server.kill()  # the broker goes down
    seqs = []
    for _ in range(4):
        t = time.monotonic()
        result = play_default(gid, users)  # accepted although publishing fails
        assert time.monotonic() - t < 3.0
        seqs.append(result.move.seq)
    assert seqs == [1, 2, 3, 4]
    pending = Notification.objects.filter(status="pending").count()
    assert pending >= 1
    time.sleep(1.0)
    assert smtp_sink.count() == 3  # nothing could be sent meanwhile
    redis_server.start()  # back, on the same port, empty (--save '')
    use_broker(redis_server.url)
    # beat's next tick: the outbox sweep (the worker reconnects by itself)
    wait_for(lambda: _publish(tasks.outbox_sweep), 30, 0.5, what="publish after broker is back")
    wait_for(all_sent, 45, 0.2, what="every notification sent")
    counts = smtp_sink.by_notification()
    assert set(counts.values()) == {1}
    # Every row delivered once, except turn notices for turns already played (skipped, not sent).
    delivered = Notification.objects.filter(sent_at__isnull=False)
    assert set(counts) == {str(n.pk) for n in delivered}
    skipped = Notification.objects.filter(sent_at__isnull=True)
    assert all(n.last_error.startswith("skipped") for n in skipped)


def _publish(task, *args) -> bool:
    try:
        task.apply_async(args, retry=False)
        return True
    except Exception as exc:
        print("publish failed:", repr(exc))
        return False


def test_worker_killed_mid_send_is_sent_exactly_once_after_restart(
    pg_db, workers, smtp_sink, settings_for_integration
):
    w1 = workers("w1")
    smtp_sink.hold.set()  # the sink stalls inside DATA
    _gid, _users = start_game(2)
    wait_for(smtp_sink.in_data.is_set, 20, what="a send in progress")
    # The on-commit task claimed the game's rows as one batch; the first is inside DATA.
    claimed = list(Notification.objects.filter(status="sending").order_by("id"))
    assert claimed
    w1.kill()  # SIGKILL in the middle of the SMTP dialogue
    wait_for(lambda: smtp_sink.aborted >= 1, 10, what="the sink to see the client vanish")
    smtp_sink.hold.clear()
    smtp_sink.release.set()
    assert smtp_sink.count() == 0
    for n in claimed:
        n.refresh_from_db()
        assert n.status == "sending"  # left behind by the killed worker
    workers("w2")
    # Nothing was delivered; the killed worker's claims expire after the lease (3 s here).
    time.sleep(3.5)
    _publish(tasks.outbox_sweep)
    wait_for(lambda: all_sent(2), 30, 0.2, what="both started emails sent")
    counts = smtp_sink.by_notification()
    assert counts == {str(n.pk): 1 for n in Notification.objects.all()}
    for n in claimed:
        n.refresh_from_db()
        assert n.attempts == 2


def test_sweep_run_twice_at_the_same_time_each_email_once(
    pg_db, workers, smtp_sink, settings_for_integration
):
    workers("w1")
    games = [start_game(2, turn_hours=12) for _ in range(6)]
    wait_for(lambda: smtp_sink.count() >= 12, 30, what="game-started emails")
    due = max(s.deadline for s in Seat.objects.filter(deadline__isnull=False))
    import time_machine

    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        try:
            with time_machine.travel(due + timedelta(minutes=1), tick=True):
                barrier.wait()
                sweep.deadlines_sweep()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert Game.objects.filter(moves__source="timeout").distinct().count() == len(games)
    for gid, _ in games:
        assert Game.objects.get(pk=gid).moves.filter(source="timeout").count() == 1
    timeouts = Notification.objects.filter(kind="timeout")
    assert timeouts.count() == len(games)
    wait_for(lambda: all_sent(), 30, 0.2, what="every notification sent")
    counts = smtp_sink.by_notification()
    assert set(counts.values()) == {1}
    assert sum("time ran out" in r.subject for r in smtp_sink.received) == len(games)


def _other_backends() -> set[int]:
    """PostgreSQL backends on the test database other than this test's own connection."""
    with connections["default"].cursor() as cur:
        cur.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )
        return {row[0] for row in cur.fetchall()}


def _turn_emails(sink) -> int:
    return sum("Your turn" in r.subject for r in sink.received)


def test_worker_keeps_its_database_connection_and_recovers_when_it_is_cut(
    pg_db, workers, worker_env, smtp_sink, settings_for_integration
):
    """A worker reuses its connection from task to task (CELERY_DB_REUSE_MAX: a new one costs
    more than an email), and a connection cut under it (a database restart, a failover) costs a
    reconnect, not the next email: that one still arrives at once, not a sweep later."""
    worker_env["CONN_MAX_AGE"] = "600"  # production's default; the other tests close each time
    workers("w1")
    gid, users = start_game(3)
    wait_for(lambda: smtp_sink.count() >= 3, 20, what="game-started emails")
    kept = _other_backends()
    assert kept, "the worker holds a database connection between tasks"

    play_default(gid, users)
    wait_for(lambda: _turn_emails(smtp_sink) >= 1, 10, 0.01, what="first turn email")
    assert kept <= _other_backends(), "the same connection served the next task"

    with connections["default"].cursor() as cur:
        cur.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [list(kept)])
    wait_for(lambda: not (kept & _other_backends()), 5, what="the worker's connection cut")

    play_default(gid, users)
    wait_for(lambda: _turn_emails(smtp_sink) >= 2, 10, 0.01, what="turn email after the cut")
    # Delivered rows are marked sent in batches (a quarter second at most), after the sink has them.
    wait_for(all_sent, 15, 0.05, what="every row marked sent")
    assert set(smtp_sink.by_notification().values()) == {1}
    # Sent by its own task at the first try: the cut cost a reconnect, not a failed attempt left
    # for a retry or the outbox sweep.
    latest = Notification.objects.filter(kind="turn").latest("id")
    assert (latest.attempts, latest.last_error) == (1, "")


def test_a_burst_of_due_games_is_shared_by_two_workers(
    pg_db, workers, worker_env, smtp_sink, settings_for_integration
):
    """The periodic sweep finds more than a chunk due, starts a helper sweep, the idle second
    worker runs it: every due game gets its one timeout move, and two sweeps ran."""
    from django.utils import timezone

    worker_env["DEADLINE_SWEEP_CHUNK"] = "2"
    w1, w2 = workers("w1"), workers("w2")
    games = [start_game(2, turn_hours=12)[0] for _ in range(8)]
    Seat.objects.filter(deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    tasks.deadlines_sweep.apply_async()

    def timed_out() -> int:
        return Game.objects.filter(pk__in=games, moves__source="timeout").distinct().count()

    wait_for(lambda: timed_out() == len(games), 30, 0.05, what="every due game timed out")
    for gid in games:
        assert Game.objects.get(pk=gid).moves.filter(source="timeout").count() == 1

    def sweeps_done() -> int:
        logs = w1.log.read_text() + w2.log.read_text()
        return sum(
            "games.tasks.deadlines_sweep[" in line and "succeeded" in line
            for line in logs.splitlines()
        )

    wait_for(lambda: sweeps_done() == 2, 10, 0.05, what="the sweep and its helper")
