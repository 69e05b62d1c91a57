"""Notification benchmark: one Celery worker sending turn emails to a local SMTP sink, and the
latency from a committed move to the email arriving at the sink.

    .venv/bin/python bench/notify_bench.py [--emails 1000] [--latency-samples 100]

Throughput: one pending turn notice in each of ``--emails`` games, then one on-commit task per game
(``notifications_send_game``, as a move queues it) published to ONE solo worker; the tasks drain
the outbox in batches (``NOTIFY_BATCH_SIZE``). ``--per-email-tasks`` publishes
``notifications_send([id])`` per row instead (the same draining).

Needs PostgreSQL and redis-server (a private one is started on a free port). Prints figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import _djangobench

ROOT = _djangobench.ROOT
sys.path.insert(0, str(ROOT / "tests" / "integration"))


class ProcessSink:
    """bench/smtp_sink.py in a subprocess; the same reading interface as livehelpers.SmtpSink."""

    @dataclass
    class Arrival:
        notification: str
        at: float

    def __init__(self, port: int, log: Path, pipelining: bool = False) -> None:
        self.port, self.log, self.pipelining = port, log, pipelining
        self.proc: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()
        self._seen: list[ProcessSink.Arrival] = []
        self._offset = 0

    def start(self) -> None:
        self.log.touch()
        script = str(Path(__file__).with_name("smtp_sink.py"))
        self.proc = subprocess.Popen(
            [sys.executable, script, str(self.port), str(self.log)]
            + (["pipelining"] if self.pipelining else []),
            stdout=subprocess.PIPE,
        )
        assert self.proc.stdout is not None
        self.proc.stdout.readline()  # "ready"

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)

    @property
    def received(self) -> list[ProcessSink.Arrival]:
        with open(self.log, "rb") as f:
            f.seek(self._offset)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self._offset += end
        for line in data[:end].decode().splitlines():
            n, at = line.split("\t")
            self._seen.append(ProcessSink.Arrival(n, float(at)))
        return self._seen

    def count(self) -> int:
        return len(self.received)

    def by_notification(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.received:
            out[r.notification] = out.get(r.notification, 0) + 1
        return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throughput(
    args: argparse.Namespace,
    pending: list[tuple[int, int]],
    sink: Any,
    tasks: Any,
    worker_pid: int,
) -> None:
    """One on-commit task per pending row, published while the worker already consumes (as a
    burst of moves would); until every email is at the sink."""
    import livehelpers as lh

    ids = [i for i, _ in pending]
    cpu0 = cpu_seconds(worker_pid)
    t0 = time.perf_counter()
    for i, g in pending:
        if args.per_email_tasks:
            tasks.notifications_send.apply_async(([i],))
        else:
            tasks.notifications_send_game.apply_async((g,))
    published = time.perf_counter() - t0
    lh.wait_for(lambda: sink.count() >= len(ids), 300, 0.01, what="all emails")
    elapsed = time.perf_counter() - t0
    rate = len(ids) / elapsed
    task = "notifications_send([id])" if args.per_email_tasks else "notifications_send_game"
    print(
        f"throughput: {len(ids)} turn emails via {len(ids)} {task} tasks on ONE worker "
        f"(solo pool) in {elapsed:.2f} s = {rate:.0f} emails/s "
        f"(publishing took {published:.2f} s)"
    )
    cpu = cpu_seconds(worker_pid) - cpu0
    print(f"  worker CPU: {cpu:.2f} s ({cpu / len(ids) * 1000:.1f} ms per email, incl. tasks)")
    dupes = sum(1 for v in sink.by_notification().values() if v > 1)
    print(f"duplicates at the sink: {dupes}")
    if args.empty_tasks:
        # The same tasks again, now that every row is sent: what a task that finds its rows taken
        # costs the worker (Celery's share plus one claim statement), part of the figure above.
        from config.celery import app
        from games import queue

        n = args.empty_tasks
        cpu0 = cpu_seconds(worker_pid)
        t0 = time.perf_counter()
        for _i, g in pending[:n]:
            tasks.notifications_send_game.apply_async((g,))
        with app.connection_for_write() as conn:
            client = conn.default_channel.client
            lh.wait_for(lambda: client.llen(queue.EMAIL) == 0, 120, 0.01, what="empty queue")
        time.sleep(0.2)  # the last task's execution
        cpu = cpu_seconds(worker_pid) - cpu0
        print(
            f"  {n} tasks finding nothing to send: {time.perf_counter() - t0:.2f} s, worker CPU "
            f"{cpu:.2f} s ({cpu / n * 1000:.2f} ms per task)"
        )


def _latency(args: argparse.Namespace, lh: ModuleType, sink: Any) -> None:
    """Moves played one by one, each timed to its emails' arrival at the sink."""
    # -- latency: move -> its emails at the sink ------------------------------------------
    # Each move's own rows (new Notification ids) are matched at the sink by their
    # X-PowerGrid-Notification header; a move that writes no row (the same player awaited
    # again, phase 5's other players) is not a sample. Measured from the start of the move
    # (before the request would have been read) and from its commit (move_submit returned).
    from django.db.models import Max

    from games.models import Game, Notification

    from_move: list[float] = []
    from_commit: list[float] = []
    no_email = 0
    slow: list[str] = []
    gid, users = lh.start_game(3)
    time.sleep(1)
    while len(from_move) < args.latency_samples:
        if Game.objects.get(pk=gid).status != "running":
            gid, users = lh.start_game(3)
            time.sleep(0.5)
        last = Notification.objects.aggregate(m=Max("id"))["m"] or 0
        t0 = time.time()
        lh.play_default(gid, users)
        t1 = time.time()
        new = [
            str(i) for i in Notification.objects.filter(id__gt=last).values_list("id", flat=True)
        ]
        if not new:
            no_email += 1
            continue
        lh.wait_for(lambda n=new: set(n) <= set(sink.by_notification()), 30, 0.002,
                    what="the move's emails")  # fmt: skip
        with sink.lock:
            arrived = max(r.at for r in sink.received if r.notification in new)
        from_move.append(arrived - t0)
        from_commit.append(arrived - t1)
        if arrived - t0 > 1.0:
            stamp = time.strftime("%H:%M:%S", time.localtime(t0))
            slow.append(
                f"{stamp} seq {Game.objects.get(pk=gid).seq}: move {t1 - t0:.2f} s, "
                f"commit->sink {arrived - t1:.2f} s"
            )

    def pct(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(len(xs) * q))]

    for name, xs in (("move start", from_move), ("commit", from_commit)):
        print(
            f"latency {name} -> sink over {len(xs)} moves: p50 "
            f"{statistics.median(xs) * 1000:.0f} ms, p95 {pct(xs, 0.95) * 1000:.0f} ms, "
            f"p99 {pct(xs, 0.99) * 1000:.0f} ms, max {max(xs) * 1000:.0f} ms"
        )
    print(f"  ({no_email} moves wrote no email; over 1 s: {len(slow)})")
    for line in slow:
        print("  slow:", line)


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--emails", type=int, default=1000)
    ap.add_argument("--latency-samples", type=int, default=100)
    ap.add_argument("--per-email-tasks", action="store_true")
    ap.add_argument(
        "--empty-tasks",
        type=int,
        default=0,
        help="after the throughput part, publish this many tasks that find nothing left to send "
        "and report the worker's CPU per such task",
    )
    ap.add_argument("--keep-logs", action="store_true", help="keep the worker log (path printed)")
    ap.add_argument("--latency-only", action="store_true", help="skip the throughput part")
    ap.add_argument("--debug-worker", action="store_true", help="run the worker with DEBUG=True")
    ap.add_argument(
        "--sink-process",
        action="store_true",
        help="the SMTP sink in a process of its own (bench/smtp_sink.py) instead of a thread of "
        "this one, where it competes with the publishing loop for the GIL",
    )
    ap.add_argument(
        "--pipelining",
        action="store_true",
        help="with --sink-process: the sink offers SMTP PIPELINING, as production MTAs do",
    )
    return ap.parse_args()


def main() -> None:
    args = _args()
    db_url = _djangobench.setup()
    tmp = Path(tempfile.mkdtemp(prefix="notify-bench-"))
    import logging

    import livehelpers as lh
    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)

    redis = lh.RedisServer(tmp)
    redis.start()
    lh.use_broker(redis.url)
    port = lh.free_port()
    if args.sink_process:
        sink: Any = ProcessSink(port, tmp / "sink.log", args.pipelining)
        controller: Any = sink
    else:
        sink = lh.SmtpSink()
        controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": db_url,
            "CELERY_BROKER_URL": redis.url,
            "EMAIL_URL": f"smtp://127.0.0.1:{port}",
            "LOG_LEVEL": "WARNING",
            "CONN_MAX_AGE": "600",
            # As in production (settings.DEBUG defaults to True for development: every query
            # kept in connection.queries, templates in debug mode; Celery warns about it).
            "DEBUG": "False" if not args.debug_worker else "True",
            "SECRET_KEY": os.environ.get("SECRET_KEY", "notify-bench-only-" + "x" * 40),
        }
    )
    from django.conf import settings

    from games import tasks
    from games.models import Notification

    settings.CELERY_BROKER_URL = redis.url
    # Django's real hasher costs ~0.3 s per user on purpose; the bench makes thousands of users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    worker = lh.Worker(env, tmp / "worker.log", "bench")
    try:
        # -- setup: games where one player is awaited, and a pending turn notice for each ---
        t = time.perf_counter()
        n_games = 1 if args.latency_only else args.emails
        # Publishing is off while building (an in-memory broker): the worker is to find only the
        # tasks published below. (It used to be on, and 1,000 stale tasks queued ahead of them.)
        lh.use_broker("memory://")
        for _ in range(n_games):
            lh.start_game(2)
        _djangobench.turn_notices_for_awaited_seats()
        pending = list(Notification.objects.values_list("id", "game_id"))
        ids = [i for i, _ in pending]
        print(f"setup: {len(ids)} pending turn notices in {time.perf_counter() - t:.1f} s")

        lh.use_broker(redis.url)
        worker.start(concurrency=1, pool="solo")
        if not args.latency_only:
            assert worker.proc is not None
            throughput(args, pending, sink, tasks, worker.proc.pid)

        _latency(args, lh, sink)
    finally:
        worker.stop()
        controller.stop()
        redis.kill()
        from django.db import connections

        connections.close_all()
        _djangobench.teardown()
        if args.keep_logs:
            print(f"worker log: {tmp / 'worker.log'}")
        else:
            subprocess.run(["rm", "-rf", str(tmp)], check=False)


if __name__ == "__main__":
    main()
