"""How many times an asynchronous game waits for a person, and how long it takes on the calendar,
with and without plans (``powergrid/plans.py``). Prints figures; asserts nothing.

    python bench/async_bench.py --quick            # 4 players, a few games, under 5 minutes
    python bench/async_bench.py --games 30 --players 3 4 5

Simulated players decide as the engine's heuristic bot does, reply after a random delay
(log-normal, median 6 hours; some take weekends off), and use the features as a typical player
would when plans are on:

* at the start of each round, and whenever they are asked in the auction phase, they leave a
  proxy bid at their valuation (the bot's own limit) for each plant of the market (and the plant
  at stake), so the bids in the round's auctions need no reply; a player at the plant limit
  names with it the plant to give up if they win (their lowest-numbered plant);
* "pass automatically when I have nothing to choose" is on for everyone;
* when they pass an auction in a round they leave auto-pass for the rest of that round;
* at the start of each round they leave a standing order to buy the fuel their plants burn (each
  token at most 1 above today's cheapest price) and to power with the best choice;
* when the building phase begins, those not yet asked leave a standing order for the cities they
  would build now, within 10 % (at least 5 Elektro) of today's cost; if a player before them
  takes a city or raises the cost, the order is refused and they are asked as usual.

A wait is a time a seat had to be asked. Phases 2 to 4 wait for one person at a time; in phase 5
everyone is asked at once (the calendar waits for the slowest). The last line is one JSON object
of medians per game for the first player count: ``{"players", "games", "waits_without",
"waits_with", "days_without", "days_with"}``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import powergrid
from powergrid.helpers import quote_build
from powergrid.heuristic import HeuristicBot
from powergrid.plans import (
    AutoPass,
    BuildOrder,
    BuyOrder,
    PassWhenNothing,
    Plan,
    PowerOrder,
    ProxyBid,
    plan_move,
    proxy_maxima,
)
from powergrid.plants import NUMBER, STEP3
from powergrid.power import best_power
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, FINISHED, State
from powergrid.tables import PLAYER_COUNTS, RESOURCES, market_prices

MEDIAN_HOURS = 6.0
SIGMA = 1.0
START = datetime(2026, 11, 2, 9, 0)  # a Monday morning


class Person:
    """A simulated player's reply delay: log-normal, median 6 h; weekends off for some."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.weekends_off = rng.random() < 0.3

    def reply_at(self, now: datetime) -> datetime:
        hours = self.rng.lognormvariate(0.0, SIGMA) * MEDIAN_HOURS
        at = now + timedelta(hours=hours)
        while self.weekends_off and at.weekday() >= 5:
            at += timedelta(hours=12)
        return at


def _fuel_order(state: State, seat: int) -> BuyOrder:
    """What a player orders at the start of a round: the fuel their plants burn to power as many
    cities as they could, each token at most 1 above today's cheapest price."""
    p = state.players[seat]
    _fired, _cities, burnt = best_power(p.plants, (99, 99, 99, 99), 99)
    need = {r: max(0, burnt[i] - p.res[i]) for i, r in enumerate(RESOURCES) if burnt[i]}
    cheapest = [market_prices(i, state.resources[i]) for i in range(4)]
    top = max((c[0] for c in cheapest if c), default=1)
    return BuyOrder(round=state.round, amounts=need, max_price=top + 1)


def _build_order(bot: HeuristicBot, state: State, seat: int) -> BuildOrder | None:
    """What a player orders when the building phase begins: the cities they would build now,
    if the total stays within 10 % (at least 5 Elektro) of today's quote. Players who build
    before them may take a city or raise a cost: the order is then refused and they are asked."""
    action = bot.choose(state, seat)
    cities = tuple(action.get("cities") or ())
    if action.get("type") != "build" or not cities:
        return None
    try:
        cost = quote_build(state, seat, list(cities))
    except powergrid.IllegalAction:
        return None
    return BuildOrder(round=state.round, cities=cities, max_total=cost + max(5, cost // 10))


def _leave_proxies(
    bot: HeuristicBot,
    state: State,
    seat: int,
    plans: dict[int, list[Plan]],
    plant: int | None,
    bid: int,
) -> None:
    """Proxies at the seat's valuations for every plant of the market (and ``plant``); at the
    plant limit, each names the lowest-numbered plant held as the one to give up."""
    held = state.players[seat].plants
    full = len(held) >= PLAYER_COUNTS[state.n].max_plants
    discard = min(held, key=NUMBER.__getitem__) if full and held else None
    for n in {plant, *state.market} - {None, STEP3}:
        assert n is not None
        limit = bot.bid_limit(state, seat, n)
        if n == plant:
            limit = max(limit, bid)
        plans[seat] = [p for p in plans[seat] if not (isinstance(p, ProxyBid) and p.plant == n)]
        plans[seat].append(ProxyBid(plant=n, max=limit, discard=discard))


def play(players: int, seed: int, with_plans: bool) -> tuple[int, float, Counter[str]]:
    """One game: (waits, calendar days, waits by phase)."""
    rng = random.Random(seed)
    people = [Person(rng) for _ in range(players)]
    bot = HeuristicBot()
    state = powergrid.new_game(map="germany", players=players, seed=seed)
    plans: dict[int, list[Plan]] = {
        s: [PassWhenNothing()] if with_plans else [] for s in range(players)
    }
    now = START
    waits = 0
    by_phase: Counter[str] = Counter()
    ordered_round = 0
    build_round = 0
    while state.phase != FINISHED:
        if with_plans and state.round != ordered_round and state.phase == AUCTION:
            ordered_round = state.round
            for s in range(players):  # standing orders for the round, set between turns
                plans[s] = [p for p in plans[s] if isinstance(p, PassWhenNothing)]
                plans[s] += [PowerOrder(state.round)]
                _leave_proxies(bot, state, s, plans, None, 0)
        if with_plans and state.phase != AUCTION and state.round == ordered_round:
            for s in range(players):
                if not any(isinstance(p, BuyOrder) and p.round == state.round for p in plans[s]):
                    plans[s].append(_fuel_order(state, s))
        if with_plans and state.phase == BUILD and build_round != state.round:
            build_round = state.round  # the building phase begins: orders for it
            first = powergrid.to_act(state)
            for s in range(players):
                if s in first:
                    continue  # already asked: their reply is their move
                order = _build_order(bot, state, s)
                if order is not None:
                    plans[s].append(order)
        awaited = powergrid.to_act(state)
        # Plans first: a seat whose plan applies moves at once.
        moved = False
        if with_plans:
            rivals = proxy_maxima(state, plans)
            for seat in awaited:
                d = plan_move(state, seat, plans[seat], rivals)
                if d.action is not None:
                    state = powergrid.apply(state, seat, d.action)
                    moved = True
                    break
        if moved:
            continue
        # Ask: phase 5 asks everyone awaited at once, the others one person.
        asked = awaited if state.phase == BUREAUCRACY else awaited[:1]
        replies = {s: people[s].reply_at(now) for s in asked}
        for seat in sorted(asked, key=lambda s: replies[s]):
            waits += 1
            by_phase[state.phase] += 1
            now = max(now, replies[seat])
            if with_plans and state.phase == AUCTION and state.discard is None:
                auc = state.auction
                plant = auc.plant if auc is not None else None
                action = bot.choose(state, seat)
                if action["type"] == "choose_plant":
                    plant = action["plant"]
                _leave_proxies(bot, state, seat, plans, plant, int(action.get("bid", 0)))
                if action["type"] == "pass_auction":
                    plans[seat].append(AutoPass(state.round))
                if auc is not None:  # the proxy answers this very turn
                    d = plan_move(state, seat, plans[seat], proxy_maxima(state, plans))
                    action = d.action or action
            else:
                action = bot.choose(state, seat)
            state = powergrid.apply(state, seat, action)
            if state.phase != BUREAUCRACY:
                break  # the others of phase 5 were asked; elsewhere one move at a time
    return waits, (now - START).total_seconds() / 86400, by_phase


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="4 players, 8 games")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    args = ap.parse_args()
    games = 8 if args.quick else args.games
    counts = [4] if args.quick else args.players
    summary = {}
    t0 = time.perf_counter()
    for n in counts:
        rows = {flag: [play(n, 1000 + i, flag) for i in range(games)] for flag in (False, True)}
        waits = {f: statistics.median(r[0] for r in rows[f]) for f in rows}
        days = {f: statistics.median(r[1] for r in rows[f]) for f in rows}
        phase_without = sum((r[2] for r in rows[False]), Counter())
        phase_with = sum((r[2] for r in rows[True]), Counter())
        print(f"{n} players, {games} games (medians per game):")
        print(f"  human waits: without plans {waits[False]:.0f}, with {waits[True]:.0f}")
        print(f"  calendar days: without {days[False]:.1f}, with {days[True]:.1f}")
        for phase in ("auction", "resources", "build", "bureaucracy"):
            a, b = phase_without[phase] / games, phase_with[phase] / games
            print(f"    {phase:12} waits per game: {a:6.1f} -> {b:6.1f}")
        summary.setdefault(
            "first",
            {
                "players": n,
                "games": games,
                "waits_without": waits[False],
                "waits_with": waits[True],
                "days_without": round(days[False], 1),
                "days_with": round(days[True], 1),
            },
        )
    print(f"({time.perf_counter() - t0:.1f} s)")
    print(json.dumps(summary["first"]))


if __name__ == "__main__":
    main()
