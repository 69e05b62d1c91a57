"""Benchmark: a tournament of 2,000 entrants read through the database: its page (standings
with each player's path, every round's tables) rendered on the server, and the API's standings
and detail. Target (issue 37): the standings page of 2,000 entrants in at most 100 ms.

Builds, in a throw-away PostgreSQL database (``bench/_djangobench.py``), ``--entrants`` players
and a tournament of ``--rounds`` rounds at 3-6 a table seated by ``tournaments.seating`` (later
rounds by the standings, as the service does), every round's results written as a game's end
writes them (random ranks); the tables' games are bare rows (no engine state: the page links to
them and reads nothing else of them). Then times GET ``/tournaments/{id}/`` for a signed-in
player with Django's test client (server-side render, no network), ``--runs`` times (the standings
kept by the process, as between two changes, and recomputed, as at the first view after a
table ended), and the API's ``/standings/`` and ``/{id}/``. Prints figures: wall and CPU time.

    .venv/bin/python bench/tournament_page_bench.py [--entrants 2000] [--rounds 5] [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _build(entrants: int, rounds: int) -> tuple[Any, Any]:
    """The tournament (finished after ``rounds`` rounds) and one of its players."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from accounts.models import Profile
    from games.models import Game
    from tournaments import scoring, seating
    from tournaments.models import Bye, Entrant, Round, Table, TablePlayer, Tournament
    from tournaments.selectors import standings_of

    User = get_user_model()
    password = make_password("x-bench-123456")
    users = User.objects.bulk_create(
        User(username=f"entrant{i:04d}", email=f"entrant{i:04d}@example.com", password=password)
        for i in range(entrants)
    )
    Profile.objects.bulk_create(
        Profile(user=u, display_name=f"Player {i}") for i, u in enumerate(users) if i % 3 == 0
    )
    t = Tournament.objects.create(
        name="Bench open",
        director=users[0],
        maps=["germany", "usa"],
        table_min=3,
        table_max=6,
        rounds=rounds,
        status=Tournament.Status.RUNNING,
        started_at=timezone.now(),
    )
    rows = Entrant.objects.bulk_create(Entrant(tournament=t, user=u) for u in users)
    user_of = {e.pk: e.user_id for e in rows}
    rng = random.Random(1)
    history = seating.History()
    order = [e.pk for e in rows]
    for number in range(1, rounds + 1):
        plan = seating.seat_round(
            order, table_min=3, table_max=6, maps=t.maps, history=history, seed=number
        )
        history.record(plan)
        rnd = Round.objects.create(tournament=t, number=number, finished_at=timezone.now())
        games = Game.objects.bulk_create(
            Game(
                creator_id=user_of[table.players[0]],
                map=table.map,
                max_players=len(table.players),
                status=Game.Status.FINISHED,
            )
            for table in plan.tables
        )
        tables = Table.objects.bulk_create(
            Table(round=rnd, number=i, map=table.map, game=game, finished=True)
            for i, (table, game) in enumerate(zip(plan.tables, games, strict=True), start=1)
        )
        seats = []
        for plan_table, row in zip(plan.tables, tables, strict=True):
            ranks = list(range(1, len(plan_table.players) + 1))
            rng.shuffle(ranks)
            points = scoring.table_points(ranks)
            for seat, p in enumerate(plan_table.players):
                seats.append(
                    TablePlayer(
                        table=row,
                        entrant_id=p,
                        seat=seat,
                        rank=ranks[seat],
                        powered=rng.randrange(10, 18),
                        money=rng.randrange(0, 80),
                        points=points[seat],
                    )
                )
        TablePlayer.objects.bulk_create(seats)
        Bye.objects.bulk_create(Bye(round=rnd, entrant_id=p) for p in plan.byes)
        t.current_round = number
        order = [s.entrant for s in standings_of(t)]
    t.status = Tournament.Status.FINISHED
    t.finished_at = timezone.now()
    t.save()
    return t, users[1]


def _time(label: str, runs: int, get: Callable[[], Any]) -> None:
    """Wall time (what a visitor waits, the database's share included) and this process's CPU
    time (the Python share; on a machine shared with other work the wall time also counts the
    waits for a core, which the CPU time does not)."""
    t0 = time.perf_counter()
    r = get()
    cold = (time.perf_counter() - t0) * 1000
    assert r.status_code == 200, (label, r.status_code)
    size = len(r.content)
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        get()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    print(
        f"{label}: first {cold:.0f} ms; median {statistics.median(wall):.0f} ms (CPU "
        f"{statistics.median(cpu):.0f} ms), min {min(wall):.0f} ms (CPU {min(cpu):.0f} ms) over "
        f"{runs} runs; {size / 1024:.0f} kB; load average {os.getloadavg()[0]:.1f}"
    )


def _start(entrants: int) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tournaments import services
    from tournaments.models import Entrant, Table

    password = make_password("x-bench-123456")
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"starter{i:04d}", email=f"starter{i:04d}@example.com", password=password)
        for i in range(entrants)
    )
    t = services.tournament_create(
        director=users[0], name="Start", maps=["germany", "usa"], table_min=3, table_max=6
    )
    Entrant.objects.bulk_create(Entrant(tournament=t, user=u) for u in users)
    t0 = time.perf_counter()
    services.tournament_start(tournament_id=t.pk, user=users[0])
    took = time.perf_counter() - t0
    tables = Table.objects.filter(round__tournament=t).count()
    made = Table.objects.filter(round__tournament=t, game__isnull=False).count()
    print(
        f"start of {entrants} entrants: {tables} tables seated, {made} of their games made in "
        f"its transaction (the others by a task each after commit: bench/tournament_bench.py "
        f"--start), in {took:.2f} s ({took / tables * 1000:.0f} ms a table); load average "
        f"{os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entrants", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--profile", action="store_true", help="cProfile one render of the page")
    ap.add_argument(
        "--start",
        type=int,
        default=0,
        help="also time the service's start of a tournament of this many entrants (round 1 "
        "seated; its tables' games are made after commit, not timed here)",
    )
    args = ap.parse_args()

    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    os.environ["STATIC_ROOT"] = tempfile.mkdtemp(prefix="tournament_page_bench_static_")
    import _djangobench  # the production-like environment: DEBUG off, PostgreSQL
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    _djangobench.setup()
    call_command("collectstatic", interactive=False, verbosity=0)  # hashed names, as deployed
    try:
        t0 = time.perf_counter()
        t, player = _build(args.entrants, args.rounds)
        print(
            f"tournament: {args.entrants} entrants, {args.rounds} rounds at 3-6 a table "
            f"(built in {time.perf_counter() - t0:.1f} s)"
        )
        c = Client()
        c.force_login(player)
        page = f"/tournaments/{t.pk}/"
        from tournaments import selectors

        def recomputed() -> Any:
            selectors._standings.clear()  # as after a table ended: the standings read again
            return c.get(page)

        _time("page /tournaments/{id}/ (standings, paths, rounds)", args.runs, lambda: c.get(page))
        _time(
            "page, its standings recomputed (the first view after a change)", args.runs, recomputed
        )
        api = f"/api/v1/tournaments/{t.pk}/"
        _time("API /standings/", args.runs, lambda: c.get(api + "standings/"))
        _time("API /{id}/ (rounds and tables)", args.runs, lambda: c.get(api))
        if args.start:
            _start(args.start)
        if args.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.runcall(c.get, page)
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    finally:
        _djangobench.teardown()


if __name__ == "__main__":
    main()
