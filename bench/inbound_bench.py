"""Replies by email: how many reply emails one process parses, verifies and applies per second on
PostgreSQL, and how long a reply's answer takes to reach the SMTP sink.

    .venv/bin/python bench/inbound_bench.py [--games 100] [--replies 1000] [--latency-samples 30]
    .venv/bin/python bench/inbound_bench.py --compare [--games 100] [--rounds 3] [--rate 50]

``--compare``: process per message (``receive_mail``) against the inbound mail service (LMTP +
the worker), alternated round by round (bench/inbound_compare.py): CPU per message and MTA
hand-off -> move applied, p50/p95, the service's messages handed in at a steady ``--rate``/s,
and where the time went (queue wait or work). ``--layout one``: one Celery worker for every
queue (``--concurrency``, the small site's ``powergrid-worker@``); ``--layout queues``: a worker
for the ``moves`` queue and one for the rest (step 4 of OPERATIONS.md's capacity plan,
``powergrid-queue@``), so a move never waits behind the emails the moves before it sent.

1. Throughput: ``--games`` 4-player games; each reply answers the awaited seat's current reply
   address with the heuristic bot's move written as a player would write it, and goes through
   ``games.inbox.receive.mail_receive`` (parse the MIME, the token's HMAC, the sender, the
   command, the move service with its transaction, the log row, the answer in the outbox and
   its sending task published to Redis), one after the other in this process, as one
   ``receive_mail`` worker would. Prints replies/s.
2. Latency: a real Celery worker on a private Redis sends the answers to an SMTP sink; for
   ``--latency-samples`` replies, the time from handing the reply in to the answer at the sink.

Needs PostgreSQL and redis-server. Prints figures; asserts nothing.
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
from typing import Any

import _djangobench

ROOT = _djangobench.ROOT
sys.path.insert(0, str(ROOT / "tests" / "integration"))
sys.path.insert(0, str(ROOT / "tests"))


def _games(n: int) -> list[int]:
    from livehelpers import make_users

    from games.services.lobby import game_create, game_join

    ids = []
    for g in range(n):
        users = make_users(4, prefix=f"ib{g}_")
        game = game_create(creator=users[0], map="germany", max_players=4)
        for u in users[1:]:
            game_join(game_id=game.pk, user=u)
        ids.append(game.pk)
    return ids


def _reply_for(gid: int, bot: Any, n: int) -> bytes:
    """A reply to the awaited seat's current reply address, with the bot's move."""
    from test_play_by_email_live import command_for

    import powergrid
    from games.inbox.tokens import reply_address
    from games.models import Game, Seat

    game = Game.objects.get(pk=gid)
    seat = game.to_act[0]
    user = Seat.objects.select_related("user").get(game=game, seat=seat).user
    to = reply_address(game_id=gid, seat=seat, seq=game.seq, user_id=user.pk, hours=48)
    text = command_for(bot.choose(powergrid.from_json(game.state_json), seat))
    return (
        f"From: <{user.email}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <bench{n}.{gid}.{time.time_ns()}@client.example>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n"
        f"{text}\r\n\r\nOn Monday, Power Grid wrote:\r\n> It is your turn\r\n"
    ).encode()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--replies", type=int, default=1000)
    ap.add_argument("--latency-samples", type=int, default=30)
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rate", type=float, default=50.0)
    ap.add_argument("--pipe-per-round", type=int, default=10)
    ap.add_argument("--layout", choices=("one", "queues"), default="one")
    ap.add_argument("--concurrency", type=int, default=2, help="processes per Celery worker")
    ap.add_argument("--port", type=int, default=int(os.environ.get("BENCH_LMTP_PORT", "9525")))
    args = ap.parse_args()
    db_url = _djangobench.setup()
    if args.compare:
        compare(args, db_url)
        return
    import livehelpers as lh
    from aiosmtpd.controller import Controller

    from games.inbox.receive import mail_receive
    from games.models import Game, Notification
    from powergrid.heuristic import HeuristicBot

    # Redis as the broker from the start, as in production (each reply publishes its sending
    # tasks); no worker runs during the throughput part: the tasks wait in Redis.
    tmp = Path(tempfile.mkdtemp(prefix="inbound-bench-"))
    redis = lh.RedisServer(tmp)
    redis.start()
    lh.use_broker(redis.url)
    bot = HeuristicBot()
    ids = _games(args.games)
    # Prepare every reply first, so the timing is the handler's alone.
    done = 0
    took = 0.0
    statuses: dict[str, int] = {}
    while done < args.replies:
        batch = []
        for gid in ids:
            if Game.objects.get(pk=gid).status != "running":
                continue
            batch.append(_reply_for(gid, bot, done + len(batch)))
            if done + len(batch) >= args.replies:
                break
        if not batch:
            break
        t0 = time.perf_counter()
        for raw in batch:
            got = mail_receive(raw, via="bench")
            statuses[got.status] = statuses.get(got.status, 0) + 1
        took += time.perf_counter() - t0
        done += len(batch)
    print(
        f"throughput: {done} replies parsed, verified and applied in {took:.2f} s = "
        f"{done / took:.0f} replies/s in one process on PostgreSQL ({statuses})"
    )

    # Latency: a real worker sends the answers to a sink.
    from config.celery import app
    from games import queue

    with app.connection_for_write() as conn:
        conn.default_channel.client.delete(queue.EMAIL)  # the throughput part's tasks
    port = lh.free_port()
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
        }
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
         "--loglevel", "WARNING", "--without-heartbeat", "--without-mingle", "--without-gossip"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        Notification.objects.update(status="sent")  # the throughput part's answers: not these
        time.sleep(3)  # the worker starts
        samples = []
        for i in range(args.latency_samples):
            gid = next(g for g in ids if Game.objects.get(pk=g).status == "running")
            raw = _reply_for(gid, bot, 10**6 + i)
            before = sink.count()
            t0 = time.time()
            mail_receive(raw, via="bench")
            answer = Notification.objects.filter(kind="reply").latest("id").pk
            lh.wait_for(
                lambda a=answer, b=before: any(r.notification == str(a) for r in sink.received[b:]),
                20,
                0.005,
                what="the answer at the sink",
            )
            at = next(r.at for r in sink.received[before:] if r.notification == str(answer))
            samples.append(at - t0)
        samples.sort()
        print(
            f"reply -> answer at the SMTP sink ({len(samples)} replies, one worker): "
            f"p50 {statistics.median(samples) * 1000:.0f} ms, "
            f"max {samples[-1] * 1000:.0f} ms"
        )
    finally:
        worker.kill()
        controller.stop()
        redis.kill()
        _djangobench.teardown()


def compare(args: argparse.Namespace, db_url: str) -> None:
    """See the module's docstring (``--compare``)."""
    import livehelpers as lh
    from aiosmtpd.controller import Controller
    from inbound_compare import run_compare

    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    tmp = Path(tempfile.mkdtemp(prefix="inbound-compare-"))
    redis = lh.RedisServer(tmp)
    redis.start()
    lh.use_broker(redis.url)
    sink = lh.SmtpSink()
    smtp_port = lh.free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": redis.url,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
        "LOG_LEVEL": "WARNING",
        "TURN_EMAIL_HOLD_SECONDS": "0",
    }
    from games import queue

    # Each worker as deploy/systemd starts them (-O fair), logging at INFO to a file of its own:
    # the bench reads each task's run time there ("succeeded in").
    groups = (
        [None]
        if args.layout == "one"
        else [queue.MOVES, ",".join(q for q in queue.QUEUES if q != queue.MOVES)]
    )
    logs, workers = [], []
    for i, queues in enumerate(groups):
        logs.append(tmp / f"worker{i}.log")
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-n", f"bench{i}@%h",
               "--concurrency", str(args.concurrency), "-O", "fair", "--loglevel", "INFO",
               "--logfile", str(logs[-1]),
               "--without-heartbeat", "--without-mingle", "--without-gossip"]  # fmt: skip
        if queues:
            cmd += ["-Q", queues]
        workers.append(
            subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )
    print(
        f"layout {args.layout}: {len(workers)} worker(s) x --concurrency {args.concurrency}, "
        f"{args.games} games, {args.rounds} rounds, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        flush=True,
    )
    bot = HeuristicBot()
    ids = _games(args.games)
    n = [0]

    def make() -> list[tuple[int, int, str, bytes]]:
        out = []
        for game in Game.objects.filter(pk__in=ids, status="running").only("pk", "seq"):
            n[0] += 1
            raw = _reply_for(game.pk, bot, n[0])
            to = raw.split(b"\r\nTo: ", 1)[1].split(b"\r\n", 1)[0].decode()
            out.append((game.pk, game.seq, to, raw))
        return out

    try:
        time.sleep(3)  # the worker starts
        run_compare(
            make, env=env, db_url=db_url, root=ROOT, port=args.port, rounds=args.rounds,
            rate=args.rate, pipe_per_round=args.pipe_per_round, worker_logs=logs,
        )  # fmt: skip
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        for worker in workers:
            worker.kill()
        controller.stop()
        redis.kill()
        _djangobench.teardown()


if __name__ == "__main__":
    main()
