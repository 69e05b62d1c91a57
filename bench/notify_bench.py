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
import time
from pathlib import Path

import _djangobench

ROOT = _djangobench.ROOT
sys.path.insert(0, str(ROOT / "tests" / "integration"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--emails", type=int, default=1000)
    ap.add_argument("--latency-samples", type=int, default=100)
    ap.add_argument("--per-email-tasks", action="store_true")
    ap.add_argument("--keep-logs", action="store_true", help="keep the worker log (path printed)")
    args = ap.parse_args()
    db_url = _djangobench.setup()
    tmp = Path(tempfile.mkdtemp(prefix="notify-bench-"))
    import logging

    import livehelpers as lh
    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)

    redis = lh.RedisServer(tmp)
    redis.start()
    lh.use_broker(redis.url)
    sink = lh.SmtpSink()
    port = lh.free_port()
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
        n_games = args.emails
        from games.models import Game, Seat
        from games.notifications.outbox import OutboxWriter

        # Publishing is off while building (the worker is not running yet; rows stay pending).
        gid, users = lh.start_game(2)
        for _ in range(n_games - 1):
            lh.start_game(2)
        Notification.objects.all().delete()
        rows = []
        for seat in Seat.objects.select_related("user__profile", "game").filter(
            deadline__isnull=False
        ):
            w = OutboxWriter(game=seat.game)
            w.turn(seat, seq=seat.game.seq)
            rows += w.rows
        Notification.objects.bulk_create(rows)
        pending = list(Notification.objects.values_list("id", "game_id"))
        ids = [i for i, _ in pending]
        print(f"setup: {len(ids)} pending turn notices in {time.perf_counter() - t:.1f} s")

        worker.start(concurrency=1, pool="solo")
        # -- throughput: one task per email (the on-commit path), one solo worker ----------
        # Published first (as a burst of moves would), then the worker is let loose... no: the
        # worker is already consuming, so publishing and sending overlap as they would live.
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
        dupes = sum(1 for v in sink.by_notification().values() if v > 1)
        print(f"duplicates at the sink: {dupes}")

        # -- latency: committed move -> email at the sink -----------------------------------
        lats = []
        gid, users = lh.start_game(3)
        time.sleep(1)
        for _ in range(args.latency_samples):
            before = sink.count()
            t = time.time()
            lh.play_default(gid, users)
            try:
                lh.wait_for(lambda b=before: sink.count() > b, 10, 0.002, what="turn email")
            except AssertionError:
                continue  # e.g. a move that awaits the same player again: no email
            lats.append(sink.received[-1].at - t)
            if lats[-1] > 1.0:
                stamp = time.strftime("%H:%M:%S", time.localtime(t))
                seq = Game.objects.get(pk=gid).seq
                print(f"  slow: {lats[-1]:.2f} s, move at {stamp} (seq {seq})")
        lats.sort()
        if lats:
            p95 = lats[min(len(lats) - 1, int(len(lats) * 0.95))]
            print(
                f"latency move->sink over {len(lats)} moves: median "
                f"{statistics.median(lats) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
                f"max {max(lats) * 1000:.0f} ms"
            )
            print(f"  over 1 s: {sum(x > 1 for x in lats)}; slowest 5 (ms): "
                  f"{[round(x * 1000) for x in lats[-5:]]}")  # fmt: skip
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
