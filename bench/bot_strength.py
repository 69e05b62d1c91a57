"""How strong the bot levels are (``powergrid.levels``): four-player games, seats rotated, on
every map.

For each pairing, one bot of the level tested plays three bots of the level it is measured
against: the top level against three heuristic bots, then each level against three of the
level below it. Game ``g`` is played on map ``(g // 4) % maps`` with the tested bot in seat
``g % 4`` and seed ``seed + g``: every 16 games (4 maps) play every map from every seat. (Runs
before 2026-11-26 09:40 UTC used map ``g % maps``, so each map saw one seat; the seats' order
of play is drawn by the seed either way.) Printed per pairing: games, win rate with its 95 %
interval (Wilson), mean rank (1 = won; a shared first place counts as a win), the tested bot's
time per decision (p50, p95, max: CPU time of the deciding thread, ``time.thread_time``; then
wall-clock p50/p95, which depends on what else the machine runs) and the peak memory of a
worker process. The search levels spend their whole count of rollouts (no wall-clock cap
unless ``--wall-cap``), so the result does not depend on the machine's load.
``decision_ms_p95`` is CPU time. The last line
is one JSON object for the top level against the heuristic bots::

    {"level": "expert", "games": 200, "win_rate": 0.55, "ci95": [0.48, 0.62],
     "decision_ms_p95": 400.0, "decision_wall_ms_p95": 450.0}

Usage::

    nice -n 19 python bench/bot_strength.py --quick          # <= 10 minutes: the top level only
    nice -n 19 python bench/bot_strength.py --games 200 --procs 1   # every pairing, 200 games
    python bench/bot_strength.py --pairs top --games 400 --procs 2

A level that keeps accounts (the expert) is handed each seat's money as the public move log
tells it, kept by ``powergrid.bots.play_game`` as the server keeps it from its log.
The heuristic opponents read the real state directly: the same moves as the heuristic level
deciding from its view (``tests/engine/test_levels.py``), faster. A decision's time is the
tested bot's whole ``choose`` (its view, the draws, the rollouts) on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import resource
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from powergrid.bots import AccountsBot, Bot, play_game
from powergrid.heuristic import HeuristicBot
from powergrid.levels import LEVEL_NAMES, LEVELS, TOP_LEVEL, LevelBot, below
from powergrid.maps import available_maps
from powergrid.search import Budget
from powergrid.state import State

Action = dict[str, Any]


class _Timed:
    """A bot whose decisions are timed: the CPU time of the deciding thread
    (``time.thread_time``, what the decision costs one core, whatever else the machine runs)
    and the wall-clock time (what a player waits on this machine as loaded now)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.walls: list[float] = []

    @property
    def keeps_accounts(self) -> bool:
        return bool(getattr(self.bot, "keeps_accounts", False))

    def choose(self, state: State, seat: int, accounts: Sequence[int] | None = None) -> Action:
        c = time.thread_time()
        t = time.perf_counter()
        if accounts is not None:
            action = cast(AccountsBot, self.bot).choose(state, seat, accounts)
        else:
            action = self.bot.choose(state, seat)
        self.walls.append(time.perf_counter() - t)
        self.times.append(time.thread_time() - c)
        return action


def _bot(level: str, seed: int, scale: float, cap: bool) -> Bot:
    """A bot of ``level``. Without ``cap`` a search level spends its whole count of rollouts,
    however long it takes (the production wall-clock cap is a safety for a busy machine, and
    here it would make the moves depend on the other jobs' load)."""
    if level == "heuristic":
        return HeuristicBot()
    budget = LEVELS[level].budget
    if budget is None or cap:
        return LevelBot(level, seed=seed, budget_scale=scale)
    uncapped = Budget(budget.scaled(scale).rollouts, math.inf)
    return LevelBot(level, seed=seed, budget=uncapped)


def play_one(job: tuple[str, str, int, int, float, bool]) -> dict[str, Any]:
    """One game: ``level`` in the rotated seat against three ``against``."""
    level, against, g, seed, scale, cap = job
    maps = available_maps()
    seat = g % 4
    tested = _Timed(_bot(level, seed + g, scale, cap))
    bots: list[Bot] = [_bot(against, seed + g * 7 + i, scale, cap) for i in range(4)]
    bots[seat] = tested
    t = time.perf_counter()
    final, moves = play_game(map=maps[(g // 4) % len(maps)], players=4, seed=seed + g, bots=bots)
    result = final.result or ()
    rank = int(result[seat][3]) if result else 4
    return {
        "level": level,
        "against": against,
        "game": g,
        "map": maps[(g // 4) % len(maps)],
        "seat": seat,
        "rank": rank,
        "times": tested.times,
        "walls": tested.walls,
        "seconds": time.perf_counter() - t,
        "moves": len(moves),
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def costs() -> dict[str, float]:
    """What a search pays per step, in microseconds (one core): a view, a determinization, a
    state copy (``State.copy``: what ``apply`` clones), a move (``apply`` with the heuristic
    bot's choice), and a rollout to the end from the start and from round 6."""
    import random

    import powergrid
    from powergrid.determinize import determinize
    from powergrid.search import rollout
    from powergrid.turns import first_to_act
    from powergrid.view import view

    def per(fn: Any, n: int) -> float:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t) / n * 1e6

    starts = [powergrid.new_game(map="germany", players=4, seed=i) for i in range(10)]
    s = starts[0]
    seat = s.order[0]
    v = view(s, seat)
    rng = random.Random(1)
    h = HeuristicBot()
    moves = 0
    t = time.perf_counter()
    for st in starts:
        while st.phase != "finished":
            who = first_to_act(st)
            st = powergrid.apply(st, who, h.choose(st, who))
            moves += 1
    per_move = (time.perf_counter() - t) / moves * 1e6
    mid = starts[1]
    while mid.round < 6:
        who = first_to_act(mid)
        mid = powergrid.apply(mid, who, h.choose(mid, who))
    return {
        "view_us": per(lambda: view(s, seat), 200),
        "determinize_us": per(lambda: determinize(v, seat, rng), 200),
        "state_copy_us": per(s.copy, 20000),
        "move_us": per_move,
        "rollout_from_start_ms": per(lambda: rollout(s, {}), 10) / 1000,
        "rollout_from_round6_ms": per(lambda: rollout(mid, {}), 10) / 1000,
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % with the default ``z``)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    wins = sum(1 for r in rows if r["rank"] == 1)
    times = [t for r in rows for t in r["times"]]
    walls = [t for r in rows for t in r.get("walls", ())]
    lo, hi = wilson(wins, n)
    return {
        "level": rows[0]["level"] if rows else "",
        "against": rows[0]["against"] if rows else "",
        "games": n,
        "wins": wins,
        "win_rate": wins / n if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
        "mean_rank": sum(r["rank"] for r in rows) / n if n else 0.0,
        "decisions": len(times),
        "decision_ms_p50": _pct(times, 0.5) * 1000,
        "decision_ms_p95": _pct(times, 0.95) * 1000,
        "decision_ms_max": max(times, default=0.0) * 1000,
        "wall_ms_p50": _pct(walls, 0.5) * 1000,
        "wall_ms_p95": _pct(walls, 0.95) * 1000,
        "game_s_mean": sum(r["seconds"] for r in rows) / n if n else 0.0,
        "rss_mb_max": max((r["rss_mb"] for r in rows), default=0.0),
    }


def _print(s: dict[str, Any]) -> None:
    print(
        f"{s['level']:>9} vs 3x {s['against']:<9} games {s['games']:>4}  "
        f"win {s['win_rate']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]  "
        f"mean rank {s['mean_rank']:.2f}  decision CPU ms p50 {s['decision_ms_p50']:.1f} "
        f"p95 {s['decision_ms_p95']:.1f} max {s['decision_ms_max']:.1f}, wall ms p50 "
        f"{s['wall_ms_p50']:.1f} p95 {s['wall_ms_p95']:.1f}  "
        f"game {s['game_s_mean']:.1f} s  worker peak RSS {s['rss_mb_max']:.0f} MB",
        flush=True,
    )


def pairings(which: str) -> list[tuple[str, str]]:
    """(tested, against) pairs: the top level against the heuristic, then each level against
    the one below (``which``: ``top`` or ``all``)."""
    out = [(TOP_LEVEL, "heuristic")]
    if which == "all":
        for level in reversed(LEVEL_NAMES):
            lower = below(level)
            if lower is not None and (level, lower) not in out:
                out.append((level, lower))
    return out


def run(
    pairs: list[tuple[str, str]],
    games: int,
    procs: int,
    seed: int,
    scale: float,
    budget_s: float | None,
    out_file: str | None = None,
    cap: bool = False,
) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Play every pairing's games (``procs`` processes), stopping new games after
    ``budget_s`` seconds per pairing (None: no limit)."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(procs, maxtasksperchild=None) as pool:
        for level, against in pairs:
            jobs = [(level, against, g, seed, scale, cap) for g in range(games)]
            rows: list[dict[str, Any]] = []
            t0 = time.perf_counter()
            it: Iterator[dict[str, Any]] = pool.imap_unordered(play_one, jobs)
            for row in it:
                rows.append(row)
                if out_file is not None:
                    with open(out_file, "a") as f:
                        f.write(json.dumps(row) + "\n")
                if len(rows) % 10 == 0:
                    print("  ...", end="")
                    _print(summary(rows))
                if budget_s is not None and time.perf_counter() - t0 > budget_s:
                    break  # the games still under way are dropped
            if budget_s is not None and len(rows) < games:
                pool.terminate()
                pool = ctx.Pool(procs)
            out[(level, against)] = rows
            _print(summary(rows))
        pool.terminate()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="the top level only, <= 10 minutes")
    ap.add_argument("--games", type=int, default=200, help="games per pairing")
    ap.add_argument("--pairs", choices=("top", "all"), default="all")
    ap.add_argument("--procs", type=int, default=2, help="worker processes (at most 2 here)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--scale", type=float, default=1.0, help="search budget factor")
    ap.add_argument("--minutes", type=float, default=None, help="stop new games after this")
    ap.add_argument(
        "--pair", default=None, help="one pairing only, as LEVEL:AGAINST (e.g. expert:heuristic)"
    )
    ap.add_argument(
        "--wall-cap",
        action="store_true",
        help="keep the production wall-clock cap (default: the whole count of rollouts)",
    )
    ap.add_argument("--out", default=None, help="append every game's row to this JSON-lines file")
    args = ap.parse_args(argv)
    procs = max(1, min(args.procs, os.cpu_count() or 1))
    if args.quick:
        pairs = pairings("top")
        games = min(args.games, 40)
        minutes = args.minutes if args.minutes is not None else 8.5
    else:
        pairs = pairings(args.pairs)
        if args.pair:
            level, against = args.pair.split(":")
            pairs = [(level, against)]
        games = args.games
        minutes = args.minutes
    print(
        f"bot strength: {games} games per pairing, {procs} processes, maps "
        f"{', '.join(available_maps())}, seed {args.seed}, budget scale {args.scale}, "
        f"wall-clock cap {'on' if args.wall_cap else 'off'}",
        flush=True,
    )
    c = costs()
    print("costs: " + ", ".join(f"{k} {v:.1f}" for k, v in c.items()), flush=True)
    budget_s = None if minutes is None else minutes * 60 / len(pairs)
    results = run(pairs, games, procs, args.seed, args.scale, budget_s, args.out, cap=args.wall_cap)
    rows = results.get((TOP_LEVEL, "heuristic"))
    if rows is None:
        return 0
    top = summary(rows)
    print(
        json.dumps(
            {
                "level": TOP_LEVEL,
                "games": top["games"],
                "win_rate": round(top["win_rate"], 4),
                "ci95": top["ci95"],
                "decision_ms_p95": round(top["decision_ms_p95"], 1),
                "decision_wall_ms_p95": round(top["wall_ms_p95"], 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
