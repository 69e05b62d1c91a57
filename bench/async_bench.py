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

With round sheets (``powergrid/sheet.py``), every seat is asked at the start of each round, all
at once, for its sheet; the simulated players accept the suggestion (the heuristic level's own
choices); the round then plays itself, and a seat is asked again only where its sheet cannot
decide. A sheet wait is one time the game waits (for the slowest of the seats asked at once);
``--sheet-deadline`` plays a sheet's suggestion when a player has not answered within that many
hours, the second set of sheet figures. It models the server's rule (``games/sheets/asking.py``,
``games/sheets/timeouts.py``): a sheet's deadline is the game's turn hours (24 by default,
``DEFAULT_TURN_HOURS``) counted from the round's start, the same for every seat asked at once, and
a seat asked again where its sheet cannot decide has a turn's deadline (the same hours) from
then; weekends count (``pause_weekends`` is off by default); a sheet played at its deadline is one
timeout for its seat, and after ``TIMEOUTS_BEFORE_BOT`` of them in a row (the game's
``timeouts_before_bot``, 3 by default) the bot plays the seat, which is then asked no more. The
win share pits one suggestion-accepting sheet player against heuristic bots moving move by move
(a few dozen games: a rough figure; ``bench/sheet_strength.py`` measures it paired by seed, over
thousands of games, with a confidence interval).

A wait is a time a seat had to be asked. Phases 2 to 4 wait for one person at a time; in phase 5
everyone is asked at once (the calendar waits for the slowest). The last line is one JSON object
of medians per game for the first player count: ``{"players", "games", "waits_without",
"waits_with", "days_without", "days_with", "waits_sheets", "days_sheets",
"waits_sheets_deadline", "days_sheets_deadline", "win_sheet", "win_heuristic", "by_players"}``
(``by_players``: the sheet figures for every player count run).
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
from powergrid.bots import winners
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
from powergrid.sheet import suggest, to_plans
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, FINISHED, State
from powergrid.tables import PLAYER_COUNTS, RESOURCES, market_prices
from powergrid.view import view

MEDIAN_HOURS = 6.0
SIGMA = 1.0
#: The server's defaults (``games.models.DEFAULT_OPTIONS``): a turn's (and a round sheet's)
#: hours, and the timeouts in a row after which the bot plays a seat.
DEFAULT_TURN_HOURS = 24.0
TIMEOUTS_BEFORE_BOT = 3
START = datetime(2026, 11, 2, 9, 0)  # a Monday morning


class Person:
    """A simulated player's reply delay: log-normal, median 6 h; weekends off for some."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.weekends_off = rng.random() < 0.3
        self.late = 0  # round sheets played at their deadline in a row (``_reply``)

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


def _sheet_plans(state: State, seat: int) -> list[Plan]:
    """The seat's sheet for the round (from its current phase on), suggestions accepted."""
    return to_plans(suggest(view(state, seat), seat))


def _reply(person: Person, now: datetime, deadline: float) -> datetime:
    """When a sheet is answered: the person's reply, or at the sheet's deadline (``deadline``
    hours; 0: none) its suggestion is played for them (``person.late`` counts those in a row)."""
    at = person.reply_at(now)
    if deadline and at >= now + timedelta(hours=deadline):
        person.late += 1
        return now + timedelta(hours=deadline)
    person.late = 0
    return at


def play_sheets(
    players: int,
    seed: int,
    sheet_seats: frozenset[int] | None = None,
    deadline: float = 0.0,
) -> tuple[int, float, Counter[str], list[int]]:
    """One game played by round sheets: (waits, calendar days, waits by reason, winners).

    At the start of each round every seat in ``sheet_seats`` (default: all) is asked for its
    sheet at once (one wait: the calendar waits for the slowest reply); the round then plays
    itself from the sheets, and a seat is asked again (a sheet for what remains) only where its
    sheet cannot decide. Seats outside ``sheet_seats`` are the heuristic bot moving at once
    (the win-rate pairing: their waits are not counted)."""
    rng = random.Random(seed)
    people = [Person(rng) for _ in range(players)]
    seats = frozenset(range(players)) if sheet_seats is None else sheet_seats
    bot = HeuristicBot()
    state = powergrid.new_game(map="germany", players=players, seed=seed)
    plans: dict[int, list[Plan]] = {s: [] for s in range(players)}
    now = START
    waits = 0
    why: Counter[str] = Counter()
    sheet_round = 0
    while state.phase != FINISHED:
        # The bot plays a seat after too many sheets played at their deadline in a row.
        people_seats = frozenset(s for s in seats if people[s].late < TIMEOUTS_BEFORE_BOT)
        if state.round != sheet_round and state.phase == AUCTION:
            sheet_round = state.round
            replies = [_reply(people[s], now, deadline) for s in people_seats]
            now = max(replies, default=now)
            waits += 1 if replies else 0
            why["sheet"] += 1 if replies else 0
            for s in seats:
                plans[s] = _sheet_plans(state, s)
        awaited = powergrid.to_act(state)
        rivals = proxy_maxima(state, {s: plans[s] for s in seats})
        moved = False
        for seat in awaited:
            if seat not in seats:
                state = powergrid.apply(state, seat, bot.choose(state, seat))
                moved = True
                break
            d = plan_move(state, seat, plans[seat], rivals)
            if d.action is not None:
                state = powergrid.apply(state, seat, d.action)
                moved = True
                break
        if moved:
            continue
        # No sheet decides: ask the awaited sheet seats (at once) for a sheet for what remains
        # (a seat the bot plays is not asked: it gets the bot's move below).
        asked = [s for s in awaited if s in seats]
        replies = [_reply(people[s], now, deadline) for s in asked if s in people_seats]
        if replies:
            now = max(replies)
            waits += 1
            why[f"ask:{state.phase}"] += 1
        for s in asked:
            plans[s] = _sheet_plans(state, s)
            d = plan_move(state, s, plans[s], proxy_maxima(state, plans))
            state = powergrid.apply(state, s, d.action or bot.choose(state, s))
            if state.phase == FINISHED or s not in powergrid.to_act(state):
                break
    return waits, (now - START).total_seconds() / 86400, why, winners(state)


def win_rate(players: int, games: int) -> tuple[float, float]:
    """Win share of one sheet player (accepting every suggestion) against heuristic bots
    moving move by move, and of a heuristic bot in the same seat (the same seeds) for
    comparison. A shared win counts as a fraction."""
    sheet = bot = 0.0
    for i in range(games):
        seat = i % players
        _w, _d, _why, won = play_sheets(players, 5000 + i, frozenset({seat}))
        sheet += (seat in won) / len(won)
        plain = powergrid.new_game(map="germany", players=players, seed=5000 + i)
        h = HeuristicBot()
        while plain.phase != FINISHED:
            who = powergrid.to_act(plain)[0]
            plain = powergrid.apply(plain, who, h.choose(plain, who))
        won = winners(plain)
        bot += (seat in won) / len(won)
    return sheet / games, bot / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="4 players, 8 games")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    ap.add_argument(
        "--sheet-deadline",
        type=float,
        default=DEFAULT_TURN_HOURS,
        help="hours a round sheet waits before its suggestion plays (0: no deadline); the "
        "server's rule: the game's turn hours, 24 by default",
    )
    ap.add_argument("--win-games", type=int, default=60, help="games per win-rate pairing")
    args = ap.parse_args()
    games = 8 if args.quick else args.games
    counts = [4] if args.quick else args.players
    summary: dict[str, dict[str, float]] = {}
    per_count: dict[int, dict[str, float]] = {}
    t0 = time.perf_counter()
    for n in counts:
        rows = {flag: [play(n, 1000 + i, flag) for i in range(games)] for flag in (False, True)}
        waits = {f: statistics.median(r[0] for r in rows[f]) for f in rows}
        days = {f: statistics.median(r[1] for r in rows[f]) for f in rows}
        sheets = [play_sheets(n, 1000 + i) for i in range(games)]
        timed = [play_sheets(n, 1000 + i, deadline=args.sheet_deadline) for i in range(games)]
        ws, ds = statistics.median(r[0] for r in sheets), statistics.median(r[1] for r in sheets)
        wt, dt = statistics.median(r[0] for r in timed), statistics.median(r[1] for r in timed)
        reasons = sum((r[2] for r in sheets), Counter())
        won_sheet, won_bot = win_rate(n, args.win_games if not args.quick else 4 * n)
        phase_without = sum((r[2] for r in rows[False]), Counter())
        phase_with = sum((r[2] for r in rows[True]), Counter())
        print(f"{n} players, {games} games (medians per game):")
        print(f"  human waits: without plans {waits[False]:.0f}, with {waits[True]:.0f}")
        print(f"  calendar days: without {days[False]:.1f}, with {days[True]:.1f}")
        for phase in ("auction", "resources", "build", "bureaucracy"):
            a, b = phase_without[phase] / games, phase_with[phase] / games
            print(f"    {phase:12} waits per game: {a:6.1f} -> {b:6.1f}")
        print(
            f"  round sheets: waits {ws:.0f}, days {ds:.1f} without a sheet deadline; "
            f"with a {args.sheet_deadline:g} h deadline: waits {wt:.0f}, days {dt:.1f}"
        )
        asks = {k: round(v / games, 2) for k, v in sorted(reasons.items())}
        print(f"    waits per game by reason: {asks}")
        print(
            f"  win share of one suggestion-accepting sheet player vs {n - 1} heuristic: "
            f"{won_sheet:.1%} (a heuristic player in that seat: {won_bot:.1%}; "
            f"fair share {1 / n:.1%})"
        )
        per_count[n] = {
            "waits_sheets": ws,
            "days_sheets": round(ds, 1),
            "waits_sheets_deadline": wt,
            "days_sheets_deadline": round(dt, 1),
            "win_sheet": round(won_sheet, 3),
            "win_heuristic": round(won_bot, 3),
        }
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
    last = dict(summary["first"])
    last.update(per_count[last["players"]])
    last["sheet_deadline_hours"] = args.sheet_deadline
    last["by_players"] = {str(k): v for k, v in per_count.items()}
    print(json.dumps(last))


if __name__ == "__main__":
    main()
