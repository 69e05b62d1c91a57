"""The event stream under load: ``--clients`` connections watch one game on a real ASGI server
(uvicorn, one process, PostgreSQL, Redis publish/subscribe); this process makes ``--moves``
moves through the move service and measures, per move, the time from its commit to its event
reaching every client. Prints figures, with the server's and the clients' CPU apart.

    .venv/bin/python bench/stream_bench.py [--clients 1000] [--moves 10]

The clients run in a process of their own (asyncio, raw sockets): their CPU is not the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time

import _djangobench

CLIENT = r"""
import asyncio, json, resource, sys, time
port, game, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
got = {}  # seq -> arrival times

async def one(i, ready):
    r, w = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    w.write(f"GET /api/v1/stream/?game={game} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await w.drain()
    first = True
    while True:
        line = await r.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            seq = json.loads(line[6:])["game"]["seq"]
            if first:
                first = False
                ready.append(i)
                continue
            got.setdefault(seq, []).append(time.time())

async def main():
    ready = []
    tasks = [asyncio.create_task(one(i, ready)) for i in range(n)]
    while len(ready) < n:
        await asyncio.sleep(0.05)
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    u = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"got": got, "cpu": u.ru_utime + u.ru_stime}), flush=True)
    for t in tasks:
        t.cancel()

asyncio.run(main())
"""


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/3")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.clients)), hard))
    os.environ["STREAM_REDIS_URL"] = args.redis
    db_url = _djangobench.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model

    import powergrid
    from games import services
    from games.models import Game
    from games.services.moves import move_submit

    settings.STREAM_REDIS_URL = args.redis
    User = get_user_model()
    users = [User.objects.create_user(f"s{i}", f"s{i}@example.com", None) for i in range(3)]
    game = services.game_create(creator=users[0], map="germany", max_players=3)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "STREAM_REDIS_URL": args.redis,
        "DEBUG": "False",
        "ALLOWED_HOSTS": "*",
        "SECURE_SSL_REDIRECT": "False",
        # Every client of the bench comes from 127.0.0.1: lift the per-address cap for it.
        "STREAM_MAX_PER_ADDRESS": str(args.clients + 10),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port),
         "--no-access-log", "--log-level", "warning", "--backlog", str(4 * args.clients)],
        cwd=_djangobench.ROOT, env=env,
    )  # fmt: skip
    client = None
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        t0 = time.monotonic()
        client = subprocess.Popen(
            [sys.executable, "-c", CLIENT, str(port), str(game.pk), str(args.clients)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert client.stdout is not None
        assert client.stdin is not None
        assert client.stdout.readline().strip() == "ready"
        print(f"{args.clients} clients connected in {time.monotonic() - t0:.1f} s")
        time.sleep(1)
        server_cpu0 = _cpu(server.pid)
        commits: dict[int, float] = {}
        for _ in range(args.moves):
            g = Game.objects.get(pk=game.pk)
            seat = g.to_act[0]
            user = g.seats.get(seat=seat).user
            action = powergrid.default_action(powergrid.from_json(g.state_json), seat)
            move_submit(game_id=g.pk, user=user, action=action, expected_seq=g.seq, source="api")
            commits[g.seq + 1] = time.time()  # on_commit has published by now
            time.sleep(0.5)
        time.sleep(2)
        server_cpu = _cpu(server.pid) - server_cpu0
        client.stdin.write("done\n")
        client.stdin.flush()
        report = json.loads(client.stdout.readline())
        worst, medians, complete = [], [], 0
        for seq, at in commits.items():
            times = report["got"].get(str(seq), [])
            if len(times) == args.clients:
                complete += 1
            if times:
                delays = sorted(t - at for t in times)
                worst.append(delays[-1])
                medians.append(statistics.median(delays))
        print(
            f"{args.moves} moves, {complete} reached all {args.clients} clients; "
            f"commit -> last client: median {statistics.median(worst) * 1000:.0f} ms, "
            f"max {max(worst) * 1000:.0f} ms; commit -> median client "
            f"{statistics.median(medians) * 1000:.0f} ms"
        )
        print(
            f"CPU while the moves were sent: server {server_cpu:.2f} s, "
            f"clients (their whole run) {report['cpu']:.2f} s"
        )
    finally:
        if client is not None:
            client.kill()
        server.terminate()
        server.wait(10)
        _djangobench.teardown()


if __name__ == "__main__":
    asyncio.set_event_loop_policy(None)
    main()
