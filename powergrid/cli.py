"""The engine's command line: ``python -m powergrid simulate|bench``.

``simulate`` plays complete games with the bots and prints a summary; any exception or a game
that does not end within the move cap counts as an error (with its seed) and makes the exit
status non-zero. ``bench`` prints the engine's figures, the last line a JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from powergrid import bench as bench_mod
from powergrid import bots as bots_mod
from powergrid import verify as verify_mod

BOT_CHOICES = ("heuristic", "random", "mixed")


@dataclass
class GameError:
    seed: int
    error: str


@dataclass
class SimulationSummary:
    """What ``simulate`` found over its games."""

    map: str
    players: int
    bot: str
    variant: str
    games: int = 0
    finished: int = 0
    rounds: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    winner_cities: list[int] = field(default_factory=list)
    errors: list[GameError] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        def stats(values: list[int]) -> dict[str, float] | None:
            if not values:
                return None
            return {
                "min": min(values),
                "mean": round(statistics.fmean(values), 2),
                "max": max(values),
            }

        return {
            "map": self.map,
            "players": self.players,
            "bot": self.bot,
            "variant": self.variant,
            "games": self.games,
            "finished": self.finished,
            "rounds": stats(self.rounds),
            "moves": stats(self.moves),
            "winner_cities": stats(self.winner_cities),
            "errors": [{"seed": e.seed, "error": e.error} for e in self.errors],
            "seconds": round(self.seconds, 3),
        }


def simulate(
    *,
    map: str = "germany",
    players: int = 4,
    games: int = 100,
    seed: int = 1,
    bot: str = "heuristic",
    variant: str = "standard",
    max_moves: int = bots_mod.DEFAULT_MAX_MOVES,
) -> SimulationSummary:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ... and summarise them."""
    summary = SimulationSummary(map=map, players=players, bot=bot, variant=variant)
    start = time.perf_counter()
    for game_seed in range(seed, seed + games):
        summary.games += 1
        try:
            bots = bots_mod.make_bots(bot, players, game_seed)
            state, moves = bots_mod.play_game(
                map, players, game_seed, bots, variant=variant, max_moves=max_moves
            )
        except Exception as exc:  # any failure is a reported error, never a crash
            last = traceback.extract_tb(exc.__traceback__)[-1:]
            where = f" at {last[0].filename}:{last[0].lineno}" if last else ""
            summary.errors.append(GameError(game_seed, f"{type(exc).__name__}: {exc}{where}"))
            continue
        summary.finished += 1
        summary.moves.append(len(moves))
        summary.rounds.append(bots_mod.game_round(state))
        summary.winner_cities.append(bots_mod.winner_cities(state))
    summary.seconds = time.perf_counter() - start
    return summary


def print_summary(summary: SimulationSummary, out: TextIO) -> None:
    d = summary.as_dict()
    print(
        f"simulate: map={summary.map} players={summary.players} bot={summary.bot} "
        f"variant={summary.variant}",
        file=out,
    )
    rate = summary.games / summary.seconds if summary.seconds > 0 else 0.0
    print(
        f"games: {summary.games}  finished: {summary.finished}  errors: {len(summary.errors)}  "
        f"time: {summary.seconds:.2f} s ({rate:.1f} games/s)",
        file=out,
    )
    for label, key in (
        ("rounds", "rounds"),
        ("moves per game", "moves"),
        ("winner's cities", "winner_cities"),
    ):
        s = d[key]
        if isinstance(s, dict):
            print(f"{label}: min {s['min']}  mean {s['mean']}  max {s['max']}", file=out)
        else:
            print(f"{label}: -", file=out)
    for err in summary.errors:
        print(f"error: seed {err.seed}: {err.error}", file=out)
    print(json.dumps(d, sort_keys=True), file=out)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m powergrid", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play complete games with bots and summarise them")
    sim.add_argument("--map", default="germany")
    sim.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="2..6")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--bot", default="heuristic", choices=BOT_CHOICES)
    sim.add_argument("--variant", default="standard")
    sim.add_argument("--max-moves", type=int, default=bots_mod.DEFAULT_MAX_MOVES)

    b = sub.add_parser("bench", help="measure the engine (last line of output is JSON)")
    b.add_argument("--quick", action="store_true", help="few games: a smoke run, not figures")
    b.add_argument("--games", type=int, default=None, help="games per figure")
    b.add_argument("--seed", type=int, default=1)

    v = sub.add_parser(
        "verify",
        help="check a finished game's record: the seed against its commitment, every move replayed",
    )
    v.add_argument("record", help="the JSON of GET /api/v1/games/{id}/record/ ('-': stdin)")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out if out is not None else sys.stdout
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        summary = simulate(
            map=args.map,
            players=args.players,
            games=args.games,
            seed=args.seed,
            bot=args.bot,
            variant=args.variant,
            max_moves=args.max_moves,
        )
        print_summary(summary, out)
        return 1 if summary.errors else 0
    if args.command == "bench":
        bench_mod.run_bench(quick=args.quick, games=args.games, seed=args.seed, out=out)
        return 0
    if args.command == "verify":
        text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text("utf-8")
        try:
            record = json.loads(text)
        except ValueError as exc:
            print(f"not JSON: {exc}", file=out)
            return 2
        verdict = verify_mod.verify(record if isinstance(record, dict) else {})
        print(("verified: " if verdict.ok else "NOT verified: ") + verdict.reason, file=out)
        print(f"moves replayed: {verdict.moves}", file=out)
        return 0 if verdict.ok else 1
    raise AssertionError(args.command)  # pragma: no cover - argparse rejects it first
