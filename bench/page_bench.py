"""Benchmark: the game page of a 6-player game in step 3, rendered on the server.

Builds the game by letting the heuristic bot play every seat through the move service until step 3,
then times GET /games/<id>/ for a player (whose move is awaited) and for a spectator with Django's
test client (server-side render, no network). Prints figures; targets: <= 60 ms, <= 150 kB.

    .venv/bin/python bench/page_bench.py [--runs 30] [--sqlite]

In the production configuration: DEBUG off, PostgreSQL (a throw-away database, as the other
benches: bench/_djangobench.py), Redis as the cache (``CACHE_URL``, default
redis://127.0.0.1:6379/3 when Redis answers), hashed static files (collectstatic into a temporary
STATIC_ROOT), requests over HTTPS behind the proxy. ``--sqlite`` is the embedded default instead
(SQLite, local-memory cache), for a machine without the services. ``--warm`` first does what
each gunicorn worker does before its first request (``config.warmup``): compare the first view
with and without it.
"""

from __future__ import annotations

import argparse
import gzip
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _redis_answers() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
        return True
    except OSError:
        return False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--map", default="germany")
    ap.add_argument("--sqlite", action="store_true", help="the embedded default, not production")
    ap.add_argument(
        "--warm",
        action="store_true",
        help="run config.warmup first, as each gunicorn worker does before its first request",
    )
    args = ap.parse_args()

    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")  # the moves' emails: not measured here
    os.environ["STATIC_ROOT"] = tempfile.mkdtemp(prefix="page_bench_static_")
    if args.sqlite:
        (ROOT / "var").mkdir(exist_ok=True)
        tmp = tempfile.mkdtemp(prefix="page_bench_", dir=ROOT / "var")
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    elif _redis_answers():
        os.environ.setdefault("CACHE_URL", "redis://127.0.0.1:6379/3")
    import _djangobench  # the production-like environment: DEBUG off, PostgreSQL
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    if args.sqlite:
        call_command("migrate", verbosity=0)
    else:
        _djangobench.setup()
    call_command("collectstatic", interactive=False, verbosity=0)  # hashed names, as deployed
    if args.warm:
        from config.warmup import warm_up

        took = warm_up()
        print("warmed up: " + ", ".join(f"{k} {v:.2f} s" for k, v in took.items()))
    print(
        f"configuration: DEBUG={settings.DEBUG}, database {connection.vendor}, cache "
        f"{settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, static "
        f"{settings.STORAGES['staticfiles']['BACKEND'].rsplit('.', 1)[-1]}"
    )
    try:
        _bench(args, Client)
    finally:
        if not args.sqlite:
            _djangobench.teardown()


def _bench(args: argparse.Namespace, Client: type) -> None:
    from django.contrib.auth import get_user_model

    from games import selectors, services
    from powergrid.bots import HeuristicBot

    User = get_user_model()
    users = [
        User.objects.create_user(username=f"bench{i}", password="x-bench-123456") for i in range(7)
    ]
    game = services.game_create(creator=users[0], map=args.map, max_players=6)
    for u in users[1:6]:
        services.game_join(game_id=game.pk, user=u)
    game.refresh_from_db()  # the last join started it (auto_start)
    bot = HeuristicBot()
    t0 = time.perf_counter()
    moves = 0
    while True:
        game = selectors.game_get(game_id=game.pk)
        state = selectors.game_engine_state(game)
        if state.step == 3 and state.phase in ("resources", "build") and state.round > 1:
            break
        if state.phase == "finished":
            raise SystemExit("the game ended before step 3; try another run")
        seat = game.to_act[0]
        services.move_submit(
            game_id=game.pk,
            user=users[seat],
            action=bot.choose(state, seat),
            expected_seq=game.seq,
            source="bot",
        )
        moves += 1
    print(
        f"game: {args.map}, 6 players, round {state.round}, step {state.step}, "
        f"phase {state.phase}, {moves} moves (played in {time.perf_counter() - t0:.1f} s)"
    )
    player = users[game.to_act[0]]
    spectator = users[6]
    url = f"/games/{game.pk}/"
    https = {"HTTP_X_FORWARDED_PROTO": "https", "secure": True}
    for label, user in (("player to move", player), ("spectator", spectator)):
        c = Client(**https)
        c.force_login(user)
        t = time.perf_counter()
        r = c.get(url)
        cold = (time.perf_counter() - t) * 1000
        assert r.status_code == 200, r.status_code
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            r = c.get(url)
            times.append((time.perf_counter() - t) * 1000)
        size = len(r.content)
        zipped = len(gzip.compress(r.content))
        times.sort()
        print(
            f"{label:15s} first {cold:6.1f} ms | median {statistics.median(times):5.1f} ms | "
            f"p90 {times[int(len(times) * 0.9) - 1]:5.1f} ms | {size / 1000:.1f} kB "
            f"({size} bytes; {zipped / 1000:.1f} kB gzipped)"
        )
    hist = Client(**https)
    hist.force_login(player)
    t = time.perf_counter()
    r = hist.get(f"/games/{game.pk}/history/{game.seq // 2}/")
    print(
        f"history page (after move {game.seq // 2}): {(time.perf_counter() - t) * 1000:.1f} ms, "
        f"{len(r.content) / 1000:.1f} kB"
    )
    print("targets: <= 60 ms, <= 150 kB")


if __name__ == "__main__":
    main()
