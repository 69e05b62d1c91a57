"""Deadline sweep benchmark: 1,000 due games among 100,000 running games.

    .venv/bin/python bench/sweep_bench.py [--games 100000] [--due 1000]

Reports separately:
  find+claim  ``sweep.due_games_claim``: the due games locked at once (FOR UPDATE SKIP LOCKED over
              the indexed due-seat query) and their due seats re-read under the lock, two
              statements; for all 1,000 in one transaction, and for one sweeper chunk
              (``DEADLINE_SWEEP_CHUNK``); also the old way (one transaction per game);
  handling    the full sweep: for every due game, the engine's default action applied through
              move_apply_system (new state, Move row, turn hook, deadlines, outbox rows).
Publishing is pointed at an in-memory broker (nothing is sent).
"""

from __future__ import annotations

import argparse
import time
from datetime import timedelta
from types import ModuleType

import _djangobench


def parallel_sweeps(n: int, due: int) -> None:
    """``n`` sweeps started together in forked processes, each with its own connection."""
    import multiprocessing

    from django.db import connections

    from games.deadlines import sweep

    connections.close_all()  # a forked child must not share the parent's connection
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(n)
    out = ctx.Queue()

    def one() -> None:
        barrier.wait()
        t0 = time.time()
        report = sweep.deadlines_sweep(limit=due, budget_seconds=600)
        out.put((t0, time.time(), report.moves, report.find_seconds))
        connections.close_all()

    procs = [ctx.Process(target=one) for _ in range(n)]
    for p in procs:
        p.start()
    results = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join(60)
    start, end = min(r[0] for r in results), max(r[1] for r in results)
    moves = sum(r[2] for r in results)
    print(
        f"handling ({n} sweeps at once): {moves} timeout moves in {end - start:.2f} s "
        f"(moves per sweep {[r[2] for r in results]}, find {max(r[3] for r in results) * 1000:.0f}"
        " ms at most)"
    )


def _setup_games(args: argparse.Namespace, lh: ModuleType) -> None:
    """``args.games`` running games copied from a template game, ``args.due`` of them due."""
    from django.utils import timezone

    from games.models import Game, Seat

    t = time.perf_counter()
    template_id, users = lh.start_game(2)
    for _ in range(args.advance):  # a mid-game state (bigger to parse and to move on)
        lh.play_default(template_id, users)
    template = Game.objects.get(pk=template_id)
    Game.objects.all().delete()
    now = timezone.now()
    awaited = template.to_act[0]
    batch = 5000
    for start in range(0, args.games, batch):
        games = Game.objects.bulk_create(
            [
                Game(
                    creator=users[0], map=template.map, areas=template.areas, max_players=2,
                    options=template.options, status="running", seed=template.seed,
                    seq=template.seq, state_json=template.state_json, to_act=template.to_act,
                    engine_version=template.engine_version, started_at=now,
                )
                for _ in range(min(batch, args.games - start))
            ]
        )  # fmt: skip
        seats = []
        for i, g in enumerate(games):
            due = start + i < args.due
            for n, u in enumerate(users):
                dl = None
                if n == awaited:
                    dl = now - timedelta(minutes=1) if due else now + timedelta(hours=12 + i % 100)
                seats.append(Seat(game=g, seat=n, user=u, colour=["red", "blue"][n], deadline=dl))
        Seat.objects.bulk_create(seats)
    print(f"setup: {args.games} running games, {args.due} due, in {time.perf_counter() - t:.0f} s")
    from django.db import connection

    with connection.cursor() as c:
        c.execute("ANALYZE games_seat; ANALYZE games_game;")


def _find_and_claim(args: argparse.Namespace) -> None:
    """Finding and claiming the due games: in one transaction, as one sweeper's chunk, and the
    old way (a transaction per game), each timed."""
    from django.db import transaction
    from django.utils import timezone

    from games.deadlines import sweep
    from games.models import Game, Seat

    # -- find + claim ----------------------------------------------------------------------
    t0 = time.perf_counter()
    with transaction.atomic():
        claim = sweep.due_games_claim(limit=args.due)
        due_seats = sum(len(v) for v in claim.due.values())
    t1 = time.perf_counter()
    print(
        f"find+claim (one transaction): {len(claim.games)} due games among {args.games} "
        f"locked with their {due_seats} due seats in {(t1 - t0) * 1000:.0f} ms"
    )
    chunk = sweep.sweep_chunk()
    t0 = time.perf_counter()
    with transaction.atomic():
        part = sweep.due_games_claim(limit=chunk)
    t1 = time.perf_counter()
    claimed = len(part.games)
    t2 = time.perf_counter()
    ids = sweep.due_game_ids(limit=args.due)
    old = 0
    for gid in ids:
        with transaction.atomic():
            g = Game.objects.select_for_update(skip_locked=True).filter(pk=gid).first()
            if (
                g is not None
                and Seat.objects.filter(
                    game=g, seat__in=g.to_act, deadline__lte=timezone.now()
                ).exists()
            ):
                old += 1
    t3 = time.perf_counter()
    print(
        f"find+claim of one sweeper chunk: {claimed} in {(t1 - t0) * 1000:.0f} ms; "
        f"the old way (a transaction per game): {old} in {(t3 - t2) * 1000:.0f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--due", type=int, default=1000)
    ap.add_argument("--advance", type=int, default=0, help="moves played on the template game")
    ap.add_argument(
        "--chunk", type=int, default=0, help="DEADLINE_SWEEP_CHUNK (games per transaction)"
    )
    ap.add_argument(
        "--parallel",
        type=int,
        default=1,
        help="sweeps at once, each in a process of its own (as DEADLINE_SWEEP_PARALLEL workers "
        "share a burst); the figure is from the first start to the last end",
    )
    ap.add_argument(
        "--profile", action="store_true", help="print where the handling's time goes (pyinstrument)"
    )
    args = ap.parse_args()
    _djangobench.setup()
    import sys

    sys.path.insert(0, str(_djangobench.ROOT / "tests" / "integration"))
    import livehelpers as lh

    lh.use_broker("memory://")
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if args.chunk:
        settings.DEADLINE_SWEEP_CHUNK = args.chunk

    from games.deadlines import sweep

    try:
        _setup_games(args, lh)
        _find_and_claim(args)
        # -- handling: the real sweep ----------------------------------------------------------
        profiler = None
        if args.profile:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.0005)
            profiler.start()
        if args.parallel > 1:
            parallel_sweeps(args.parallel, args.due)
            return
        report = sweep.deadlines_sweep(limit=args.due, budget_seconds=600)
        if profiler is not None:
            profiler.stop()
            print(profiler.output_text(unicode=False, color=False, show_all=False))
        print(
            f"handling (full sweep): {report.moves} timeout moves on {report.handled_games} games "
            f"in {report.find_seconds + report.handle_seconds:.2f} s "
            f"(find {report.find_seconds * 1000:.0f} ms, handle {report.handle_seconds:.2f} s, "
            f"{report.handle_seconds / max(1, report.handled_games) * 1000:.1f} ms/game)"
        )
    finally:
        from django.db import connections

        connections.close_all()
        _djangobench.teardown()


if __name__ == "__main__":
    main()
