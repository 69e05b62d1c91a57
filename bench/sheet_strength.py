"""How well a player who accepts every round sheet's suggestion plays, against heuristic bots
moving move by move: the win share with a 95 % confidence interval, paired with the same seat of
the same seed played by the heuristic bot, and where the sheet's moves differ from the bot's.
Prints figures; asserts nothing.

    python bench/sheet_strength.py                    # 4 players, 500 seeds x 4 seats
    python bench/sheet_strength.py --seeds 200 --players 3 4

Why paired: a game's winner depends mostly on its seed and seat. Each seed is played once by
four heuristic bots (the baseline: every seat's share of the win, summing to 1) and once per seat
with that seat played by round sheets, suggestions accepted (``async_bench.play_sheets``, the
sheet rule the server runs: the sheet is filled in at the round's start from the seat's own
view, and a seat whose sheet cannot decide is asked again with a sheet for what remains). The
difference per seed (sheet share minus heuristic share, averaged over the seats) has a far
smaller spread than either share alone; its mean and 95 % interval (normal, over seeds) is the
figure. A shared win counts as a fraction.

``--diff`` also counts, over the sheet seats' moves, how often the move the sheet made differs
from the heuristic bot's choice in the same position (by phase and kind: a different plant
opened, a pass where the bot bids, another amount, fewer tokens, other cities), to show where a
weaker suggestion loses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from async_bench import play_sheets

import powergrid
from powergrid.bots import winners
from powergrid.heuristic import HeuristicBot
from powergrid.plans import Plan, plan_move, proxy_maxima
from powergrid.sheet import suggest, to_plans
from powergrid.state import AUCTION, FINISHED
from powergrid.view import view


def plain(players: int, seed: int) -> list[int]:
    """The winners of ``seed`` played by heuristic bots only."""
    state = powergrid.new_game(map="germany", players=players, seed=seed)
    bot = HeuristicBot()
    while state.phase != FINISHED:
        who = powergrid.to_act(state)[0]
        state = powergrid.apply(state, who, bot.choose(state, who))
    return winners(state)


def _kind(phase: str, mine: dict[str, Any], bots: dict[str, Any]) -> str:
    """How the sheet's move differs from the bot's (``""``: it does not, as far as it counts)."""
    a, b = mine.get("type"), bots.get("type")
    if a != b:
        return f"{phase}:{a}-vs-{b}"
    if a == "choose_plant" and mine.get("plant") != bots.get("plant"):
        return f"{phase}:other-plant"
    if a in ("bid", "seal_bid") and mine.get("amount") != bots.get("amount"):
        return f"{phase}:other-amount"
    if a == "buy_resources" and mine != bots:
        less = sum(int(v) for k, v in mine.items() if k != "type") < sum(
            int(v) for k, v in bots.items() if k != "type"
        )
        return f"{phase}:{'fewer' if less else 'other'}-tokens"
    if a == "build" and list(mine.get("cities") or []) != list(bots.get("cities") or []):
        fewer = len(mine.get("cities") or []) < len(bots.get("cities") or [])
        return f"{phase}:{'fewer' if fewer else 'other'}-cities"
    if a == "discard_plant" and mine.get("plant") != bots.get("plant"):
        return f"{phase}:other-discard"
    return ""


def differences(players: int, seed: int, seat: int) -> tuple[Counter[str], int]:
    """One game with ``seat`` played by its accepted sheets (every other seat by the bot): the
    moves its sheets made that differ from the bot's choice there, by kind, and how many moves
    its sheets made."""
    bot = HeuristicBot()
    state = powergrid.new_game(map="germany", players=players, seed=seed)
    plans: list[Plan] = []
    made = 0
    out: Counter[str] = Counter()
    sheet_round = 0
    while state.phase != FINISHED:
        if state.round != sheet_round and state.phase == AUCTION:
            sheet_round = state.round
            plans = to_plans(suggest(view(state, seat), seat))
        who = powergrid.to_act(state)[0] if seat not in powergrid.to_act(state) else seat
        if who != seat:
            state = powergrid.apply(state, who, bot.choose(state, who))
            continue
        d = plan_move(state, seat, plans, proxy_maxima(state, {seat: plans}))
        if d.action is None:  # asked again: a sheet for what remains
            plans = to_plans(suggest(view(state, seat), seat))
            d = plan_move(state, seat, plans, proxy_maxima(state, {seat: plans}))
        action = d.action or bot.choose(state, seat)
        if d.action is not None:
            made += 1
            kind = _kind(state.phase, action, bot.choose(state, seat))
            if kind:
                out[kind] += 1
        state = powergrid.apply(state, seat, action)
    return out, made


def measure(players: int, seeds: int, first: int) -> dict[str, float]:
    """Win shares over ``seeds`` seeds from ``first``, every seat played by the sheet in turn."""
    per_seed: list[float] = []
    sheet_total = bot_total = 0.0
    for i in range(seeds):
        seed = first + i
        won = plain(players, seed)
        diffs = []
        for seat in range(players):
            _w, _d, _why, mine = play_sheets(players, seed, frozenset({seat}))
            s = (seat in mine) / len(mine)
            b = (seat in won) / len(won)
            sheet_total += s
            bot_total += b
            diffs.append(s - b)
        per_seed.append(statistics.fmean(diffs))
    n = seeds * players
    mean = statistics.fmean(per_seed)
    half = 1.96 * statistics.stdev(per_seed) / len(per_seed) ** 0.5 if len(per_seed) > 1 else 0.0
    return {
        "players": players,
        "seeds": seeds,
        "games": n,
        "win_sheet": round(sheet_total / n, 4),
        "win_heuristic": round(bot_total / n, 4),
        "diff": round(mean, 4),
        "diff_ci95": [round(mean - half, 4), round(mean + half, 4)],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=500)
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    ap.add_argument("--first", type=int, default=5000, help="the first seed")
    ap.add_argument("--diff", type=int, default=0, help="games to count differences in")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows = []
    for n in args.players:
        row = measure(n, args.seeds, args.first)
        lo, hi = row["diff_ci95"]
        print(
            f"{n} players, {row['games']} games ({args.seeds} seeds x {n} seats): "
            f"sheet player {row['win_sheet']:.1%}, heuristic in that seat "
            f"{row['win_heuristic']:.1%}; difference {row['diff']:+.1%} "
            f"(95 % CI {lo:+.1%} to {hi:+.1%})"
        )
        if args.diff:
            kinds: Counter[str] = Counter()
            moves = 0
            for i in range(args.diff):
                c, m = differences(n, args.first + i, i % n)
                kinds += c
                moves += m
            share = {k: f"{v / moves:.1%}" for k, v in kinds.most_common()}
            print(f"  sheet moves differing from the bot's ({moves} moves): {share}")
            row["moves"] = moves
            row["differing"] = dict(kinds)
        rows.append(row)
    print(f"({time.perf_counter() - t0:.1f} s)")
    print(json.dumps(rows[0] if len(rows) == 1 else rows))


if __name__ == "__main__":
    main()
