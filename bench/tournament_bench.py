"""Tournament seating and standings at scale (pure functions, no database). Prints figures.

Seats ``--entrants`` (default 2,000) at 3-6 a table for ``--rounds`` rounds (round 1 drawn,
later rounds Swiss by standings with repeat opponents avoided), each table's ranks random, and
times each round's seating and the standings computed after it. Targets (issue 37): seating
at most 2 s a round; the standings of 2,000 entrants well inside the page's 100 ms.

    .venv/bin/python bench/tournament_bench.py [--entrants 2000] [--rounds 5]

``--start 300,2000`` (issue 37) times instead the director's start request (``POST
/api/v1/tournaments/{id}/start/``, Django's test client, no network) of a tournament of that
many entrants at 3-5 a table, in a throw-away PostgreSQL database (``bench/_djangobench.py``),
``--runs`` times each, then the time until every table's game exists: with the fix, the
request seats the round and queues one task per table (to the in-process ``memory://`` broker)
and ``--workers`` processes run the tasks (``tournaments.tasks.table_make``) from the queued
table ids; before it (a checkout without ``services.table_make``) the request made every
game. Run it in two checkouts in turn to compare (alternating runs).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.scoring import GameRecord, standings
from tournaments.seating import History, repeat_floor, repeat_pairs, seat_round, sizes_of


def _users(n: int, prefix: str) -> list:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    password = make_password("x-bench-123456")
    User = get_user_model()
    return User.objects.bulk_create(
        User(username=f"{prefix}{i:05d}", email=f"{prefix}{i:05d}@example.com", password=password)
        for i in range(n)
    )


def _make_tables(ids: list[int], workers: int) -> None:
    """Run the queued ``table_make`` tasks: ``workers`` processes, each its share in order."""
    from django.db import connections

    from tournaments import tasks

    connections.close_all()
    children = []
    for w in range(workers):
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                for table_id in ids[w::workers]:
                    tasks.table_make(table_id)
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                connections.close_all()
                os._exit(code)
        children.append(pid)
    for pid in children:
        _, status = os.waitpid(pid, 0)
        assert status == 0, "a worker failed"


def _start_once(entrants: int, run: int, workers: int) -> tuple[float, float, int]:
    """One start: (the request's seconds, seconds until every table's game exists, tables)."""
    from django.test import Client

    from games import queue
    from tournaments import services
    from tournaments.models import Entrant, Table

    users = _users(entrants, f"s{entrants}r{run}u")
    t = services.tournament_create(
        director=users[0], name="Start", maps=["germany", "usa"], table_min=3, table_max=5
    )
    Entrant.objects.bulk_create(Entrant(tournament=t, user=u) for u in users)
    queued: list[int] = []
    publish = queue.publish
    make = getattr(services, "TABLE_MAKE", None)

    def recording(name: str, *args: object, **kwargs: object) -> None:
        publish(name, *args, **kwargs)  # to the broker, as the site does (memory:// here)
        if name == make:
            queued.append(int(args[0]))  # type: ignore[call-overload]

    queue.publish = recording
    try:
        c = Client()
        c.force_login(users[0])
        t0 = time.perf_counter()
        r = c.post(f"/api/v1/tournaments/{t.pk}/start/", content_type="application/json")
        request_s = time.perf_counter() - t0
        assert r.status_code == 200, r.content[:300]
        if make is not None:
            _make_tables(queued, workers)
        total_s = time.perf_counter() - t0
    finally:
        queue.publish = publish
    tables = Table.objects.filter(round__tournament=t)
    assert not tables.filter(game__isnull=True).exists(), "a table without its game"
    return request_s, total_s, tables.count()


def _db_start(sizes: list[int], runs: int, workers: int) -> None:
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _djangobench  # the production-like environment: DEBUG off, PostgreSQL

    _djangobench.setup()
    try:
        from tournaments import services

        fixed = hasattr(services, "table_make")
        how = f"games by {workers} worker(s) after commit" if fixed else "games in the request"
        _start_once(6, -1, workers)  # warm-up: the first request's imports and caches
        for n in sizes:
            for run in range(runs):
                request_s, total_s, tables = _start_once(n, run, workers)
                print(
                    f"start of {n} entrants ({tables} tables, {how}): request {request_s:.2f} s;"
                    f" every table's game made {total_s:.1f} s after it began "
                    f"({total_s / tables * 1000:.0f} ms a table); load average "
                    f"{os.getloadavg()[0]:.1f}",
                    flush=True,
                )
    finally:
        _djangobench.teardown()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", default="", help="entrants, comma-separated: time the start")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--entrants", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--min", type=int, default=3)
    ap.add_argument("--max", type=int, default=6)
    args = ap.parse_args()
    if args.start:
        _db_start([int(x) for x in args.start.split(",")], args.runs, args.workers)
        return
    rng = random.Random(1)
    entrants = list(range(args.entrants))
    history = History()
    records: list[GameRecord] = []
    byes: list[int] = []
    order = entrants
    per_round = []
    for r in range(1, args.rounds + 1):
        t0 = time.perf_counter()
        plan = seat_round(
            order,
            table_min=args.min,
            table_max=args.max,
            maps=["germany", "usa"],
            history=history,
            seed=r,
        )
        seat_s = time.perf_counter() - t0
        history.record(plan)
        per_round.append(sizes_of(plan))
        byes += plan.byes
        for t in plan.tables:
            ranks = list(range(1, len(t.players) + 1))
            rng.shuffle(ranks)
            powered = tuple(rng.randrange(10, 18) for _ in ranks)
            money = tuple(rng.randrange(0, 80) for _ in ranks)
            records.append(GameRecord(r, t.players, tuple(ranks), powered, money))
        t0 = time.perf_counter()
        rows = standings(entrants, records, byes=byes)
        stand_ms = (time.perf_counter() - t0) * 1000
        order = [s.entrant for s in rows]
        print(
            f"round {r}: {len(plan.tables)} tables, {len(plan.byes)} byes; seating "
            f"{seat_s:.3f} s (target <= 2 s); standings {stand_ms:.1f} ms; repeat meetings so "
            f"far {repeat_pairs(history)} (floor {repeat_floor(args.entrants, per_round)})"
        )


if __name__ == "__main__":
    main()
