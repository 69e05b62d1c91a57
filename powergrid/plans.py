"""Plans: moves a player decides before their turn, made for them when it comes.

An asynchronous game waits for one person at a time, hundreds of times. A plan answers for a
player without a wait, with an ordinary move (the move log shows the move, never the plan):

* :class:`ProxyBid`: in the auction for ``plant``, bid the minimum needed, up to ``max``; pass
  above it; if winning it takes the player over the plant limit, give up ``discard`` (if named)
  instead of being asked which. When everyone else still in the auction has left a proxy too
  (the server knows all of them and tells :func:`plan_move` their maxima, never the players),
  the auction resolves in a few moves: the higher maximum wins at the lower maximum plus one;
  between equal maxima, the one whose turn comes first in the bidding order.
* :class:`AutoPass`: pass every auction for the rest of round ``round``.
* :class:`PassWhenNothing`: a standing setting: pass (or buy or build nothing) whenever nothing
  can be chosen (no plant affordable, a bid above one's money, no token or city affordable).
* :class:`BuyOrder`, :class:`BuildOrder`, :class:`PowerOrder`: standing orders for phases 3 to
  5 of round ``round``: checked against the state when the turn comes (prices and costs may have
  moved since) and made only if they still hold; otherwise the player is asked, with the reason.

* :class:`OpenOrder`, :class:`FuelOrder`, :class:`AutoBuild`: the lines of a round sheet
  (``powergrid.sheet``): the plants to open in order of preference, each with a maximum (and a
  pass for every other auction), the fuel the plants need up to a price, the cities the
  heuristic level would build up to a total. A sheet is the round's set of plans. While a
  sheet plays the seat's round (its ``OpenOrder`` is there), the seat's proxies bid as the
  heuristic level does against a rival bidding by hand: halfway from the minimum to the max.

:func:`plan_move` is the whole rule: given a state, a seat that is awaited and its plans, the move
a plan makes now (checked by :func:`powergrid.apply`), or why none applies. Pure, like the rest of
the engine: the server keeps plans secret and runs this; the async benchmark runs it too.

>>> import powergrid
>>> s = powergrid.new_game(map="germany", players=3, seed=1)
>>> opener = s.order[0]
>>> s = powergrid.apply(s, opener, {"type": "choose_plant", "plant": 3, "bid": 3})
>>> nxt = powergrid.to_act(s)[0]
>>> plan_move(s, nxt, [ProxyBid(plant=3, max=5)]).action
{'type': 'bid', 'amount': 4}
>>> plan_move(s, nxt, [ProxyBid(plant=3, max=3)]).action
{'type': 'pass_bid'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from powergrid.engine import apply
from powergrid.errors import IllegalAction
from powergrid.helpers import quote_build
from powergrid.heuristic import HeuristicBot
from powergrid.legal import legal
from powergrid.phases.auction import current_market
from powergrid.plants import NUMBER
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, RESOURCES, State
from powergrid.tables import RESOURCES as NAMES
from powergrid.turns import awaits

Action = dict[str, Any]


@dataclass(frozen=True)
class ProxyBid:
    """Bid for ``plant`` the minimum needed, up to ``max``; pass above it. ``discard``: the plant
    to give up if winning ``plant`` is one plant too many (None: ask when it happens). Whoever's
    bid wins it, the player's or the proxy's, the named discard is made."""

    plant: int
    max: int
    discard: int | None = None
    kind: str = field(default="proxy_bid", init=False)


@dataclass(frozen=True)
class AutoPass:
    """Pass every auction (open none, drop out of any) for the rest of round ``round``."""

    round: int
    kind: str = field(default="auto_pass", init=False)


@dataclass(frozen=True)
class PassWhenNothing:
    """Whenever nothing can be chosen, pass (or buy, or build, nothing) without asking."""

    kind: str = field(default="pass_when_nothing", init=False)


@dataclass(frozen=True)
class BuyOrder:
    """In round ``round``'s phase 3, buy up to ``amounts`` (``{resource: n}``), each token only
    if it costs at most ``max_price``; fewer if fewer are offered at that price."""

    round: int
    amounts: Mapping[str, int]
    max_price: int
    kind: str = field(default="buy", init=False)


@dataclass(frozen=True)
class BuildOrder:
    """In round ``round``'s phase 4, build in ``cities`` (the cheapest order), only if all of
    them can be added for at most ``max_total``."""

    round: int
    cities: tuple[str, ...]
    max_total: int
    kind: str = field(default="build", init=False)


@dataclass(frozen=True)
class PowerOrder:
    """In round ``round``'s phase 5, power with the best choice."""

    round: int
    kind: str = field(default="power", init=False)


@dataclass(frozen=True)
class OpenOrder:
    """Round ``round``'s auction, as a round sheet writes it: when it is the seat's turn to open
    an auction, open the first plant of ``choices`` (``(plant, max)`` in order of preference)
    that is offered and costs at most its max, at its minimum bid; then bid for it (as a proxy)
    up to that max. None offered: pass (``pass_else``) or ask. ``others_pass``: in an auction
    for a plant neither in ``choices`` nor under a proxy bid, pass (the sheet answers every
    auction). ``discard``: the plant to give up if a plant won is one too many."""

    round: int
    choices: tuple[tuple[int, int], ...]
    pass_else: bool = True
    others_pass: bool = True
    discard: int | None = None
    kind: str = field(default="open", init=False)


@dataclass(frozen=True)
class FuelOrder:
    """In round ``round``'s phase 3, buy the fuel the seat's plants need (the heuristic level's
    choice at that turn, from what the seat may see), each token at most ``max_price``."""

    round: int
    max_price: int
    kind: str = field(default="fuel", init=False)


@dataclass(frozen=True)
class AutoBuild:
    """In round ``round``'s phase 4, build the cities the heuristic level would build at that
    turn (the cheapest next to the network), as many as fit in ``max_total``."""

    round: int
    max_total: int
    kind: str = field(default="auto_build", init=False)


Plan = (
    ProxyBid
    | AutoPass
    | PassWhenNothing
    | BuyOrder
    | BuildOrder
    | PowerOrder
    | OpenOrder
    | FuelOrder
    | AutoBuild
)


@dataclass(frozen=True)
class Decision:
    """What the plans do now: ``action`` (made by ``plan``), or None with ``reason`` (why the
    order that was meant for this turn does not hold: the player is asked, and told why)."""

    action: Action | None
    plan: Plan | None = None
    reason: str = ""


def _checked(state: State, seat: int, action: Action, plan: Plan) -> Decision:
    try:
        apply(state, seat, action)
    except IllegalAction as exc:
        return Decision(None, plan, exc.message)
    return Decision(action, plan)


def _proxy_bid(
    state: State, seat: int, p: ProxyBid, rivals: Mapping[int, int] | None, jump: bool = False
) -> Action:
    """The proxy's bid. Against rivals whose maxima are all known, the second-price rule;
    otherwise the minimum needed, or with ``jump`` (a round sheet's bids) as the heuristic level
    bids: halfway from the minimum needed to the maximum. A sheet that bid the minimum let a
    heuristic rival bid up to its own limit and paid that plus one where the bot's jump had
    got the plant for less: its player won less often than the bot
    (``bench/sheet_strength.py``)."""
    auc = state.auction
    assert auc is not None
    need = auc.bid + 1
    mine = min(p.max, state.players[seat].money)
    if auc.sealed is not None:  # sealed bids: the maximum is the bid
        return {"type": "seal_bid", "amount": mine} if need <= mine else {"type": "pass_bid"}
    others = [b for b in auc.bidders if b != seat]
    if rivals is not None and others and all(b in rivals for b in others):
        top = max(rivals[b] for b in others)
        if mine > top:  # the winner: pay the runner-up's maximum plus one
            return {"type": "bid", "amount": max(need, top + 1)}
        if need <= mine:  # the runner-up: go to its maximum, so the winner pays it plus one
            return {"type": "bid", "amount": mine}
        return {"type": "pass_bid"}
    if need <= mine:
        return {"type": "bid", "amount": need + ((mine - need) // 2 if jump else 0)}
    return {"type": "pass_bid"}


def _auction(
    state: State, seat: int, plans: Sequence[Plan], rivals: Mapping[int, int] | None
) -> Decision:
    if state.discard is not None:
        return _discard(state, seat, plans)
    money = state.players[seat].money
    auc = state.auction
    nothing = any(isinstance(p, PassWhenNothing) for p in plans)
    passing = any(isinstance(p, AutoPass) and p.round == state.round for p in plans)
    sheet = _open_order(state, plans)
    if auc is not None:
        proxy, source = _proxy_for(state, plans, auc.plant)
        if proxy is not None and source is not None:
            # While a round sheet plays the seat's round, its bids are the heuristic level's.
            action = _proxy_bid(state, seat, proxy, rivals, jump=sheet is not None)
            return _checked(state, seat, action, source)
        if passing or (nothing and money <= auc.bid):
            plan = next(p for p in plans if isinstance(p, (AutoPass, PassWhenNothing)))
            return _checked(state, seat, {"type": "pass_bid"}, plan)
        return Decision(None)
    if sheet is not None:
        return _open(state, seat, sheet)
    if state.round == 1:
        return Decision(None)  # everyone buys a plant in round 1
    offered = [e["type"] for e in legal(state, seat)]
    if passing or (nothing and "choose_plant" not in offered):
        plan = next(p for p in plans if isinstance(p, (AutoPass, PassWhenNothing)))
        return _checked(state, seat, {"type": "pass_auction"}, plan)
    return Decision(None)


def _open_order(state: State, plans: Sequence[Plan]) -> OpenOrder | None:
    return next((p for p in plans if isinstance(p, OpenOrder) and p.round == state.round), None)


def _proxy_for(
    state: State, plans: Sequence[Plan], plant: int
) -> tuple[ProxyBid | None, Plan | None]:
    """The proxy bid that answers for ``plant`` (and the plan it comes from): an explicit proxy,
    a choice of the round's open order, or a pass (max 0) when the sheet passes the rest."""
    for p in plans:
        if isinstance(p, ProxyBid) and p.plant == plant:
            return p, p
    sheet = _open_order(state, plans)
    if sheet is None:
        return None, None
    for n, mx in sheet.choices:
        if n == plant:
            return ProxyBid(plant=n, max=mx, discard=sheet.discard), sheet
    if sheet.others_pass:
        return ProxyBid(plant=plant, max=0), sheet
    return None, None


def _open(state: State, seat: int, sheet: OpenOrder) -> Decision:
    """The seat opens an auction: the first plant of the sheet offered within its max, at its
    minimum; none: pass (after round 1) if the sheet says so, else ask."""
    offered = set(current_market(state))
    money = state.players[seat].money
    for n, mx in sheet.choices:
        if n in offered and NUMBER[n] <= min(mx, money):
            return _checked(
                state, seat, {"type": "choose_plant", "plant": n, "bid": NUMBER[n]}, sheet
            )
    if state.round > 1 and sheet.pass_else:
        return _checked(state, seat, {"type": "pass_auction"}, sheet)
    return Decision(None, sheet, "none of the plants on your sheet is offered within its price")


def _discard(state: State, seat: int, plans: Sequence[Plan]) -> Decision:
    """One plant too many: the discard named with the proxy bid for the plant just won, if any
    (its tokens move to the plants kept where they fit, as a discard without ``drop`` does).
    Otherwise which plant to give up is the player's own choice: they are asked."""
    assert state.discard is not None
    winner, won = state.discard
    for p in plans:
        if isinstance(p, ProxyBid) and p.plant == won and p.discard is not None and winner == seat:
            return _checked(state, seat, {"type": "discard_plant", "plant": p.discard}, p)
    sheet = _open_order(state, plans)
    if sheet is not None and sheet.discard is not None and winner == seat:
        return _checked(state, seat, {"type": "discard_plant", "plant": sheet.discard}, sheet)
    return Decision(None)


def _resources(
    state: State, seat: int, plans: Sequence[Plan], rivals: Mapping[int, int] | None
) -> Decision:
    entry = legal(state, seat)[0]
    if entry["type"] != "buy_resources":
        return Decision(None)
    maxes = entry["max"]
    for p in plans:
        if isinstance(p, FuelOrder) and p.round == state.round:
            return _checked(state, seat, _fuel(state, seat, p, entry), p)
    for p in plans:
        if isinstance(p, BuyOrder) and p.round == state.round:
            money = state.players[seat].money
            action: Action = {"type": "buy_resources"}
            for r in NAMES:
                want = min(int(p.amounts.get(r, 0)), maxes[r])
                prices = [x for x in entry["prices"].get(r, [])[:want] if x <= p.max_price]
                spend = 0
                take = 0
                for price in prices:
                    if spend + price > money:
                        break
                    spend += price
                    take += 1
                money -= spend
                if take:
                    action[r] = take
            if len(action) == 1 and any(p.amounts.get(r, 0) for r in NAMES):
                return Decision(None, p, f"no token costs {p.max_price} or less now")
            return _checked(state, seat, action, p)
    if any(isinstance(p, PassWhenNothing) for p in plans) and not any(maxes.values()):
        plan = next(p for p in plans if isinstance(p, PassWhenNothing))
        return _checked(state, seat, {"type": "buy_resources"}, plan)
    return Decision(None)


def _fuel(state: State, seat: int, p: FuelOrder, entry: Mapping[str, Any]) -> Action:
    """The heuristic level's purchase, token by token no dearer than ``p.max_price``."""
    wanted = HeuristicBot().choose(state, seat)
    action: Action = {"type": "buy_resources"}
    for r in NAMES:
        prices = entry["prices"].get(r, [])[: int(wanted.get(r, 0))]
        take = sum(1 for x in prices if x <= p.max_price)
        if take:
            action[r] = take
    return action


def _auto_build(state: State, seat: int, p: AutoBuild) -> Action:
    """The heuristic level's cities, the longest prefix whose cost fits ``p.max_total``."""
    cities = list(HeuristicBot().choose(state, seat).get("cities") or [])
    while cities:
        try:
            if quote_build(state, seat, cities) <= p.max_total:
                break
        except IllegalAction:
            pass
        cities.pop()
    return {"type": "build", "cities": cities}


def _build(
    state: State, seat: int, plans: Sequence[Plan], rivals: Mapping[int, int] | None
) -> Decision:
    for p in plans:
        if isinstance(p, AutoBuild) and p.round == state.round:
            return _checked(state, seat, _auto_build(state, seat, p), p)
    for p in plans:
        if isinstance(p, BuildOrder) and p.round == state.round:
            try:
                cost = quote_build(state, seat, list(p.cities))
            except IllegalAction as exc:
                return Decision(None, p, exc.message)
            if cost > p.max_total:
                return Decision(None, p, f"the cities cost {cost} now, more than {p.max_total}")
            return _checked(state, seat, {"type": "build", "cities": list(p.cities)}, p)
    if any(isinstance(p, PassWhenNothing) for p in plans) and not legal(state, seat)[0].get(
        "cities"
    ):
        plan = next(p for p in plans if isinstance(p, PassWhenNothing))
        return _checked(state, seat, {"type": "build", "cities": []}, plan)
    return Decision(None)


def _power(
    state: State, seat: int, plans: Sequence[Plan], rivals: Mapping[int, int] | None
) -> Decision:
    for p in plans:
        if isinstance(p, PowerOrder) and p.round == state.round:
            return _checked(state, seat, {"type": "power"}, p)
    return Decision(None)


_BY_PHASE = {AUCTION: _auction, RESOURCES: _resources, BUILD: _build, BUREAUCRACY: _power}


def plan_move(
    state: State, seat: int, plans: Sequence[Plan], rivals: Mapping[int, int] | None = None
) -> Decision:
    """The move ``seat``'s plans make now (``Decision.action``), or None: not awaited, no plan
    for this turn, or an order that no longer holds (``Decision.reason`` says why).

    ``rivals``: for the auction under way, the other seats' proxy maxima (a seat that passes
    every auction counts as 0); only the server knows them."""
    if not plans or not awaits(state, seat):
        return Decision(None)
    rule = _BY_PHASE.get(state.phase)
    return rule(state, seat, plans, rivals) if rule is not None else Decision(None)


def proxy_maxima(state: State, plans_by_seat: Mapping[int, Sequence[Plan]]) -> dict[int, int]:
    """Each seat's maximum for the auction under way, from its plans: its proxy bid's maximum
    (capped by its money), 0 for a seat passing every auction this round; seats with neither are
    left out (they bid by hand)."""
    auc = state.auction
    out: dict[int, int] = {}
    if auc is None:
        return out
    for seat, plans in plans_by_seat.items():
        proxy, _source = _proxy_for(state, plans, auc.plant)
        if proxy is not None:
            out[seat] = min(proxy.max, state.players[seat].money)
            continue
        if any(isinstance(p, AutoPass) and p.round == state.round for p in plans):
            out[seat] = 0
    return out
