"""Round sheets: a seat's whole round in one answer, filled in with a suggestion.

An asynchronous game asks one person at a time hundreds of times. A sheet asks every seat once a
round, all at the same time, for rules that decide the round's moves in advance (the plants to
open in order of preference, each with a maximum; the most it pays for the others; the fuel to
buy up to a price; the cities to build up to a total; power the best choice). A sheet is not a
new mechanism: it is the round's set of plans (:func:`to_plans`), run by ``plan_move`` in rule
order through the same checks as any move; where it cannot decide the seat is asked again.

:func:`suggest` fills a sheet in from the seat's own view only (``powergrid.view``, made back
into a state by ``determinize.public_state``): nothing hidden (the deck's order, others' money,
the seed, sealed bids) can change a suggestion. Each line carries its reason as a code with
parameters (:class:`Reason`); the server words it in the reader's language.

>>> import powergrid
>>> from powergrid.view import view
>>> s = powergrid.new_game(map="germany", players=3, seed=1)
>>> sheet = suggest(view(s, 0), 0)
>>> sheet.round, [line.reason.code for line in sheet.opens][:1]
(1, ['open_best'])
>>> [type(p).__name__ for p in to_plans(sheet)][1:2]
['OpenOrder']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import copy
from dataclasses import dataclass, field

from powergrid.determinize import public_state, unseen_cards
from powergrid.errors import IllegalAction
from powergrid.helpers import quote_build
from powergrid.heuristic import HeuristicBot
from powergrid.plans import (
    AutoBuild,
    BuildOrder,
    BuyOrder,
    FuelOrder,
    OpenOrder,
    PassWhenNothing,
    Plan,
    PowerOrder,
    ProxyBid,
)
from powergrid.plants import NUMBER, PLANTS, STEP3
from powergrid.shapes import View
from powergrid.state import AUCTION, BUILD, PHASES, RESOURCES, State
from powergrid.tables import PLAYER_COUNTS, market_prices
from powergrid.tables import RESOURCES as NAMES

#: Over the dearest token the suggestion buys now, the most it pays (others buy first).
FUEL_SLACK = 3
#: The most lines a sheet's ``open`` list, and its ``bids`` list, holds (the API refuses more).
MAX_LINES = 30


@dataclass(frozen=True)
class Reason:
    """Why a line says what it says: ``code`` (a key the server words) and its parameters."""

    code: str
    params: Mapping[str, int | str] = field(default_factory=dict)


@dataclass(frozen=True)
class OpenLine:
    """Open ``plant`` (in the order of the lines) if offered, and bid for it up to ``max``."""

    plant: int
    max: int
    reason: Reason


@dataclass(frozen=True)
class BidLine:
    """In an auction another seat opens for ``plant``, bid up to ``max``."""

    plant: int
    max: int
    reason: Reason


@dataclass(frozen=True)
class FuelLine:
    """Buy the fuel the plants need at that turn (``preview``: what that is now), each token
    at most ``max_price``. With ``amounts``: buy exactly those instead (an edited line)."""

    max_price: int
    reason: Reason
    preview: Mapping[str, int] = field(default_factory=dict)
    amounts: Mapping[str, int] | None = None


@dataclass(frozen=True)
class BuildLine:
    """Build up to ``max_total``: the cheapest cities at that turn (``preview``: which now), or
    with ``cities``: exactly those (an edited line)."""

    max_total: int
    reason: Reason
    preview: tuple[str, ...] = ()
    cities: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Sheet:
    """One seat's answers for round ``round``, from ``phase`` on (a sheet for what remains
    starts later in the round). An empty ``opens`` with ``pass_else``: open no auction."""

    round: int
    phase: str
    opens: tuple[OpenLine, ...] = ()
    bids: tuple[BidLine, ...] = ()
    pass_else: bool = True
    pass_reason: Reason = Reason("pass_else")
    discard: int | None = None
    discard_reason: Reason = Reason("discard_none")
    fuel: FuelLine | None = None
    build: BuildLine | None = None
    power: bool = True

    def covers(self, phase: str) -> bool:
        """Whether the sheet has lines for ``phase`` (it starts at ``self.phase``)."""
        order = list(PHASES)
        return order.index(phase) >= order.index(self.phase)


def to_plans(sheet: Sheet) -> list[Plan]:
    """The sheet as the plans that play it (``powergrid.plans.plan_move`` runs them)."""
    r = sheet.round
    out: list[Plan] = [PassWhenNothing()]
    if sheet.covers(AUCTION) and sheet.phase == AUCTION:
        out.append(
            OpenOrder(
                round=r,
                choices=tuple((o.plant, o.max) for o in sheet.opens),
                pass_else=sheet.pass_else,
                discard=sheet.discard,
            )
        )
        out += [ProxyBid(plant=b.plant, max=b.max, discard=sheet.discard) for b in sheet.bids]
    if sheet.fuel is not None and sheet.covers(RESOURCES):
        if sheet.fuel.amounts is not None:
            if any(sheet.fuel.amounts.values()):
                out.append(BuyOrder(r, dict(sheet.fuel.amounts), sheet.fuel.max_price))
        else:
            out.append(FuelOrder(r, sheet.fuel.max_price))
    if sheet.build is not None and sheet.covers(BUILD):
        if sheet.build.cities is not None:
            if sheet.build.cities:
                out.append(BuildOrder(r, sheet.build.cities, sheet.build.max_total))
        else:
            out.append(AutoBuild(r, sheet.build.max_total))
    if sheet.power:
        out.append(PowerOrder(r))
    return out


def _may_be_drawn(s: State, unseen: Sequence[int]) -> list[int]:
    """The plants no one has seen that may be drawn into the market where the seat can open
    or bid for them this round: any in step 3 (the market is all current); before, one numbered
    below the market's highest (a plant drawn above it joins the future market, and it would
    take more purchases than a round has to bring it down into the current one). Which of them
    the deck holds, and in what order, the seat cannot know: the list is the same whatever they
    are (the set of unseen plants is public)."""
    if s.step >= 3:
        return list(unseen)
    top = max((NUMBER[n] for n in s.market if n != STEP3), default=0)
    return [n for n in unseen if NUMBER[n] < top]


def _auction_lines(
    bot: HeuristicBot, s: State, seat: int, unseen: Sequence[int] = ()
) -> tuple[tuple[OpenLine, ...], tuple[BidLine, ...], Reason]:
    ranked = bot.open_ranking(s, seat, unseen)[:MAX_LINES]
    best = next((n for n, _mx in ranked if n in s.market), None)
    opens = tuple(
        OpenLine(
            n,
            mx,
            Reason("open_best", {"plant": n, "cities": PLANTS[n].powers})
            if n == best and i == 0
            else Reason("open_fallback", {"plant": n, "rank": i + 1})
            if n in s.market
            else Reason("open_if_drawn", {"plant": n, "rank": i + 1}),
        )
        for i, (n, mx) in enumerate(ranked)
    )
    chosen = {n for n, _ in ranked}
    bids: list[BidLine] = []
    for n in sorted({*s.market, *unseen} - {STEP3}, key=NUMBER.__getitem__):
        if n in chosen:
            continue
        mx = bot.bid_limit(s, seat, n)
        if mx >= NUMBER[n] and len(bids) < MAX_LINES:
            code = "bid_valuation" if n in s.market else "bid_if_drawn"
            bids.append(BidLine(n, mx, Reason(code, {"plant": n})))
    me = s.players[seat]
    why = (
        Reason("pass_enough_capacity", {"cities": len(me.cities)})
        if not ranked
        else Reason("pass_else")
    )
    return opens, tuple(bids), why


def _fuel_line(bot: HeuristicBot, s: State, seat: int, opens: Sequence[OpenLine] = ()) -> FuelLine:
    """Fuel for the plants (the heuristic level's purchase at the turn), each token at most the
    price it may cost when the seat's turn comes: the others buy first (in the worst case all of
    them what they would buy now), so the price of the seat's last token after theirs, as the
    market stands now (for a plant of its ``open`` lines, the tokens that plant burns), and
    ``FUEL_SLACK`` more (their plants may change in the auction). The heuristic level pays
    what a token costs; a limit at today's price left the sheet short of fuel when the others
    bought the same first (``bench/sheet_strength.py``)."""
    at = _at(s, RESOURCES)
    wanted = bot.choose(at, seat)
    preview: dict[str, int] = {r: int(wanted[r]) for r in NAMES if wanted.get(r)}
    mine = dict(preview)
    for line in opens:
        plant = PLANTS[line.plant]
        for r in ("coal", "oil") if plant.fuel == "hybrid" else (plant.fuel,):
            if r in NAMES:
                mine[r] = max(mine.get(r, 0), plant.burns)
    others = [bot.choose(at, other) for other in range(s.n) if other != seat]
    dearest = 1
    for i, r in enumerate(NAMES):
        prices = market_prices(i, s.resources[i])
        if not prices or (mine and r not in mine):
            continue
        ahead = sum(int(o.get(r, 0)) for o in others)
        last = ahead + mine.get(r, 1)  # the seat's last token, counted from now
        dearest = max(dearest, prices[min(len(prices), last) - 1])
    code = "fuel_for_plants" if preview else "fuel_nothing"
    return FuelLine(dearest + FUEL_SLACK, Reason(code, {"tokens": sum(preview.values())}), preview)


def _build_line(bot: HeuristicBot, s: State, seat: int) -> BuildLine:
    cities = tuple(bot.choose(_at(s, BUILD), seat).get("cities") or ())
    money = s.players[seat].money
    try:
        cost = quote_build(s, seat, list(cities)) if cities else 0
    except IllegalAction:  # a preview only: the order is worked out again at the turn
        cost = 0
    if not cities:
        return BuildLine(money, Reason("build_nothing"), ())
    return BuildLine(money, Reason("build_cheapest", {"count": len(cities), "total": cost}), cities)


def _at(s: State, phase: str) -> State:
    """``s`` as if ``phase`` had begun (a preview: the heuristic reads the phase only)."""
    if s.phase == phase:
        return s
    t = copy(s)
    t.phase = phase
    t.auction = None
    t.discard = None
    return t


def suggest(v: View, seat: int) -> Sheet:
    """The heuristic level's sheet for ``seat`` from ``v`` (its own view, ``view(state, seat)``),
    for the round under way from its current phase on."""
    s = public_state(v, seat)
    bot = HeuristicBot()
    phase = s.phase
    sheet = Sheet(round=s.round, phase=phase if phase in PHASES else AUCTION)
    if phase == AUCTION:
        drawn = _may_be_drawn(s, unseen_cards(v)) if int(v.get("deck_size", 0)) else []
        opens, bids, why = _auction_lines(bot, s, seat, drawn)
        held = s.players[seat].plants
        discard = None
        discard_why = Reason("discard_none")
        if len(held) >= PLAYER_COUNTS[s.n].max_plants and held:
            discard = bot.weakest_plant(s, seat)
            discard_why = Reason("discard_weakest", {"plant": discard})
        sheet = Sheet(
            round=s.round,
            phase=AUCTION,
            opens=opens,
            bids=bids,
            # Round 1: everyone buys a plant (no passing before one's first), and says so.
            pass_else=s.round > 1,
            pass_reason=why if s.round > 1 else Reason("open_first_round"),
            discard=discard,
            discard_reason=discard_why,
        )
    fuel = _fuel_line(bot, s, seat, sheet.opens) if sheet.covers(RESOURCES) else None
    build = _build_line(bot, s, seat) if sheet.covers(BUILD) else None
    return Sheet(
        round=sheet.round,
        phase=sheet.phase,
        opens=sheet.opens,
        bids=sheet.bids,
        pass_else=sheet.pass_else,
        pass_reason=sheet.pass_reason,
        discard=sheet.discard,
        discard_reason=sheet.discard_reason,
        fuel=fuel,
        build=build,
        power=True,
    )
