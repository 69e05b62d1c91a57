"""Engine benchmark: the figures issue 2 asks for, printed with their targets.

The last line printed is one JSON object with ``apply_median_us``, ``legal_median_us``,
``view_median_us``, ``replay_4p_ms``, ``replay_6p_ms`` and ``heuristic_games_per_s_4p``.
Everything runs in this one process, so on one core.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import powergrid
from powergrid import bots as bots_mod

# The targets: (figure, comparison, bound).
TARGETS: dict[str, tuple[str, float]] = {
    "apply_median_us": ("<=", 8.0),
    "replay_4p_ms": ("<=", 4.0),
    "replay_6p_ms": ("<=", 8.0),
    "heuristic_games_per_s_4p": (">=", 150.0),
}

UNITS = {
    "apply_median_us": "µs",
    "legal_median_us": "µs",
    "view_median_us": "µs",
    "replay_4p_ms": "ms",
    "replay_6p_ms": "ms",
    "heuristic_games_per_s_4p": "games/s",
}

Setup = dict[str, Any]
Moves = list[tuple[int, dict[str, Any]]]


def _record_games(
    players: int, games: int, seed: int, map: str = "germany"
) -> list[tuple[Setup, Moves]]:
    out: list[tuple[Setup, Moves]] = []
    for s in range(seed, seed + games):
        bots = bots_mod.make_bots("heuristic", players, s)
        _, moves = bots_mod.play_game(map, players, s, bots)
        out.append(({"map": map, "players": players, "seed": s}, moves))
    return out


def _per_call_medians(recorded: list[tuple[Setup, Moves]]) -> tuple[float, float, float]:
    """Median µs of one ``apply`` (every accepted move), ``legal`` and ``view``."""
    apply = powergrid.apply
    legal = powergrid.legal
    view = powergrid.view
    clock = time.perf_counter_ns
    apply_ns: list[int] = []
    legal_ns: list[int] = []
    view_ns: list[int] = []
    for setup, moves in recorded:
        state = powergrid.new_game(**setup)
        for i, (seat, action) in enumerate(moves):
            t0 = clock()
            legal(state, seat)
            t1 = clock()
            legal_ns.append(t1 - t0)
            if i % 4 == 0:
                t0 = clock()
                view(state, seat)
                t1 = clock()
                view_ns.append(t1 - t0)
            t0 = clock()
            state = apply(state, seat, action)
            t1 = clock()
            apply_ns.append(t1 - t0)
    return (
        statistics.median(apply_ns) / 1000.0,
        statistics.median(legal_ns) / 1000.0,
        statistics.median(view_ns) / 1000.0,
    )


def _replay_median_ms(recorded: list[tuple[Setup, Moves]], repeats: int) -> float:
    times: list[float] = []
    for setup, moves in recorded:
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            bots_mod.replay(setup, moves)
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1000.0)
    return statistics.median(times)


def _games_per_second(players: int, games: int, seed: int) -> float:
    t0 = time.perf_counter()
    for s in range(seed, seed + games):
        bots = bots_mod.make_bots("heuristic", players, s)
        bots_mod.play_game("germany", players, s, bots)
    return games / (time.perf_counter() - t0)


def _timed(label: str, fn: Callable[[], Any], log: TextIO) -> Any:
    t0 = time.perf_counter()
    result = fn()
    print(f"  ({label}: {time.perf_counter() - t0:.2f} s)", file=log)
    return result


def measure(
    *, quick: bool = False, games: int | None = None, seed: int = 1, log: TextIO | None = None
) -> dict[str, float]:
    """Measure every figure and return them (rounded)."""
    log = log if log is not None else sys.stderr
    n = games if games is not None else (4 if quick else 60)
    repeats = 1 if quick else 3
    gc.collect()
    rec4 = _timed("record 4p games", lambda: _record_games(4, n, seed), log)
    rec6 = _timed("record 6p games", lambda: _record_games(6, n, seed), log)
    apply_us, legal_us, view_us = _timed(
        "per-call timings", lambda: _per_call_medians(rec4 + rec6), log
    )
    replay4 = _timed("replay 4p", lambda: _replay_median_ms(rec4, repeats), log)
    replay6 = _timed("replay 6p", lambda: _replay_median_ms(rec6, repeats), log)
    gps = _timed(
        "heuristic games", lambda: _games_per_second(4, max(n, 10) * 2, seed + 10_000), log
    )
    return {
        "apply_median_us": round(apply_us, 2),
        "legal_median_us": round(legal_us, 2),
        "view_median_us": round(view_us, 2),
        "replay_4p_ms": round(replay4, 3),
        "replay_6p_ms": round(replay6, 3),
        "heuristic_games_per_s_4p": round(gps, 1),
    }


def format_figures(figures: dict[str, float]) -> list[str]:
    lines = []
    for key, value in figures.items():
        unit = UNITS.get(key, "")
        target = TARGETS.get(key)
        if target is None:
            note = ""
        else:
            op, bound = target
            ok = value <= bound if op == "<=" else value >= bound
            note = f"   target {op} {bound:g} {unit}  {'ok' if ok else 'MISSED'}"
        lines.append(f"{key:26} {value:10.2f} {unit:8}{note}")
    return lines


def run_bench(
    *, quick: bool = False, games: int | None = None, seed: int = 1, out: TextIO | None = None
) -> dict[str, float]:
    out = out if out is not None else sys.stdout
    print(f"powergrid bench ({'quick' if quick else 'full'}; one process, one core)", file=out)
    figures = measure(quick=quick, games=games, seed=seed, log=out)
    for line in format_figures(figures):
        print(line, file=out)
    print(json.dumps(figures, sort_keys=False), file=out)
    return figures
