"""Engine benchmark: the figures issue 2 asks for, printed with their targets.

The last line printed is one JSON object with ``apply_median_us``, ``legal_median_us``,
``view_median_us``, ``replay_4p_ms``, ``replay_6p_ms`` and ``heuristic_games_per_s_4p`` (then
per other map), and the same for the New Power Plants decks (``_new``: the new deck alone,
``_mixed``: both), measured after the base game's so those are unchanged. Everything runs in
this one process, so on one core.
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
    "heuristic_games_per_s_4p_usa": "games/s",
    "heuristic_games_per_s_4p_france": "games/s",
    "heuristic_games_per_s_4p_italy": "games/s",
    "apply_median_us_new": "µs",
    "replay_4p_ms_new": "ms",
    "heuristic_games_per_s_4p_new": "games/s",
    "heuristic_games_per_s_4p_mixed": "games/s",
}

#: The New Power Plants decks the bench measures beside the base game's.
NEW_DECKS = ("new", "mixed")

Setup = dict[str, Any]
Moves = list[tuple[int, dict[str, Any]]]


def _record_games(
    players: int, games: int, seed: int, map: str = "germany", plant_deck: str = "base"
) -> list[tuple[Setup, Moves]]:
    out: list[tuple[Setup, Moves]] = []
    for s in range(seed, seed + games):
        bots = bots_mod.make_bots("heuristic", players, s)
        _, moves = bots_mod.play_game(map, players, s, bots, plant_deck=plant_deck)
        setup: Setup = {"map": map, "players": players, "seed": s}
        if plant_deck != "base":
            setup["plant_deck"] = plant_deck
        out.append((setup, moves))
    return out


def _per_call_timings(
    recorded: list[tuple[Setup, Moves]],
) -> tuple[list[int], list[int], list[int]]:
    """Nanoseconds of each ``apply`` (every accepted move, full validation), of ``legal`` for the
    mover before each move and of ``view`` for the mover before every fourth move."""
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
    return apply_ns, legal_ns, view_ns


def _replay_median_ms(recorded: list[tuple[Setup, Moves]], repeats: int) -> float:
    """Replaying a whole game (``new_game`` and every move) from its log: the best of
    ``repeats`` CPU times per game, the median over games."""
    times: list[float] = []
    for setup, moves in recorded:
        best = float("inf")
        for _ in range(repeats):
            t0 = time.process_time()
            bots_mod.replay(setup, moves)
            best = min(best, time.process_time() - t0)
        times.append(best * 1000.0)
    return statistics.median(times)


def _games_per_second(
    players: int, games: int, seed: int, map: str = "germany", plant_deck: str = "base"
) -> float:
    """Complete heuristic-bot games (bots' choices and the engine's ``apply``) per CPU second of
    this one process, i.e. on one core, whatever else the machine runs."""
    t0 = time.process_time()
    for s in range(seed, seed + games):
        bots = bots_mod.make_bots("heuristic", players, s)
        bots_mod.play_game(map, players, s, bots, plant_deck=plant_deck)
    return games / (time.process_time() - t0)


def _describe(label: str, ns: list[int]) -> str:
    qs = statistics.quantiles(ns, n=10)
    return (
        f"  {label}: {len(ns)} calls, median {statistics.median(ns) / 1000:.2f} µs, "
        f"mean {statistics.fmean(ns) / 1000:.2f} µs, p90 {qs[-1] / 1000:.2f} µs, "
        f"max {max(ns) / 1000:.0f} µs"
    )


def _timed(label: str, fn: Callable[[], Any], log: TextIO) -> Any:
    t0 = time.perf_counter()
    result = fn()
    print(f"  ({label}: {time.perf_counter() - t0:.2f} s)", file=log)
    return result


def measure(
    *, quick: bool = False, games: int | None = None, seed: int = 1, log: TextIO | None = None
) -> dict[str, float]:
    """Measure every figure and return them (rounded); progress and details go to ``log``."""
    log = log if log is not None else sys.stderr
    n = games if games is not None else (4 if quick else 100)
    repeats = 1 if quick else 3
    gc.collect()
    rec4 = _timed("record 4p games", lambda: _record_games(4, n, seed), log)
    rec6 = _timed("record 6p games", lambda: _record_games(6, n, seed), log)
    apply_ns, legal_ns, view_ns = _timed(
        "per-call timings", lambda: _per_call_timings(rec4 + rec6), log
    )
    for label, ns in (("apply", apply_ns), ("legal", legal_ns), ("view", view_ns)):
        print(_describe(label, ns), file=log)
    moves4 = statistics.fmean(len(m) for _, m in rec4)
    moves6 = statistics.fmean(len(m) for _, m in rec6)
    print(f"  moves per game: 4p {moves4:.0f}, 6p {moves6:.0f}", file=log)
    replay4 = _timed("replay 4p", lambda: _replay_median_ms(rec4, repeats), log)
    replay6 = _timed("replay 6p", lambda: _replay_median_ms(rec6, repeats), log)
    gps = _timed(
        "heuristic games", lambda: _games_per_second(4, max(n, 10) * 2, seed + 10_000), log
    )
    others = {
        m: _timed(
            f"heuristic games on {m}",
            lambda m=m: _games_per_second(4, max(n, 10), seed + 20_000, m),  # type: ignore[misc]
            log,
        )
        for m in ("usa", "france", "italy")
    }
    rec_new = _timed(
        "record 4p new-deck games", lambda: _record_games(4, n, seed, "germany", "new"), log
    )
    apply_new = _per_call_timings(rec_new)[0]
    replay_new = _timed("replay 4p new deck", lambda: _replay_median_ms(rec_new, repeats), log)
    decks = {
        d: _timed(
            f"heuristic games, {d} deck",
            lambda d=d: _games_per_second(4, max(n, 10), seed + 30_000, "germany", d),  # type: ignore[misc]
            log,
        )
        for d in NEW_DECKS
    }
    return {
        "apply_median_us": round(statistics.median(apply_ns) / 1000.0, 2),
        "legal_median_us": round(statistics.median(legal_ns) / 1000.0, 2),
        "view_median_us": round(statistics.median(view_ns) / 1000.0, 2),
        "replay_4p_ms": round(replay4, 3),
        "replay_6p_ms": round(replay6, 3),
        "heuristic_games_per_s_4p": round(gps, 1),
        **{f"heuristic_games_per_s_4p_{m}": round(v, 1) for m, v in others.items()},
        "apply_median_us_new": round(statistics.median(apply_new) / 1000.0, 2),
        "replay_4p_ms_new": round(replay_new, 3),
        **{f"heuristic_games_per_s_4p_{d}": round(v, 1) for d, v in decks.items()},
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
        lines.append(f"{key:34} {value:10.2f} {unit:8}{note}")
    return lines


def run_bench(
    *, quick: bool = False, games: int | None = None, seed: int = 1, out: TextIO | None = None
) -> dict[str, float]:
    out = out if out is not None else sys.stdout
    mode = "quick smoke run, not figures" if quick else "full"
    print(f"powergrid bench ({mode}; one process, so one core; times are CPU time", file=out)
    print("  except the per-call medians, which use the wall clock)", file=out)
    figures = measure(quick=quick, games=games, seed=seed, log=out)
    for line in format_figures(figures):
        print(line, file=out)
    print(json.dumps(figures, sort_keys=False), file=out)
    return figures
