"""Helpers for clients and bots: build quotes, the best power choice for a seat, and the fuel
its plants lack."""

from __future__ import annotations

from typing import NamedTuple

from powergrid.engine import apply
from powergrid.errors import IllegalAction
from powergrid.legal import legal
from powergrid.phases.build import quote
from powergrid.plants import PLANTS
from powergrid.power import best_power as _best_power
from powergrid.power import hybrid_split
from powergrid.state import State
from powergrid.tables import RESOURCES as NAMES
from powergrid.tables import market_prices


class PowerPlan(NamedTuple):
    """The best power choice of a seat, as a client sends it: the plants to fire, the cities
    they power, and the hybrid split ``{plant: (coal, oil)}`` (hybrids burn coal first)."""

    plants: tuple[int, ...]
    cities: int
    hybrid: dict[int, tuple[int, int]]


def quote_build(state: State, seat: int, cities: list[str] | tuple[str, ...]) -> int:
    """The cost for ``seat`` of adding ``cities`` now, at the cheapest order the rules allow
    (build spaces plus the minimum connection cost). Raises ``IllegalAction`` when a city cannot
    be added (not in play, full, already theirs, over the city limit); money is not checked."""
    return quote(state, seat, list(cities))


def best_power(state: State, seat: int) -> PowerPlan:
    """The best plants for ``seat`` to fire (see :class:`PowerPlan`).

    Most cities powered (capped at the cities owned), then the fewest tokens burnt, then the
    fewest plants, then the lowest numbers; hybrids burn coal before oil."""
    p = state.players[seat]
    fired, powered, _ = _best_power(p.plants, p.res, len(p.cities))
    return PowerPlan(fired, powered, hybrid_split(fired, p.res))


class Refuel(NamedTuple):
    """A fuel purchase suggested to a seat: the ``buy_resources`` amounts, their price at the
    market now, and how many cities the plants it feeds (with what is held) power."""

    amounts: dict[str, int]
    cost: int
    cities: int


def refuel_plan(state: State, seat: int, *, cities: int | None = None) -> Refuel | None:
    """The cheapest tokens that let ``seat``'s plants power ``cities`` cities (default: the
    cities the seat has connected; more, such as what this round's build will add, only when
    asked), never more than that needs: the plants to run are the set that powers the most of
    those cities for the least Elektro (then the fewest tokens), so fuel is never bought for a
    plant the cities do not need. A hybrid's share is bought as whichever of coal and oil is
    cheaper, token by token. When all of it cannot be stored and paid, fewer cities. None when
    nothing is lacking for them, the seat has no city to power, or it is not the seat's turn to
    buy. What a turn email's one-tap "buy the fuel" offers, with its price on the button.

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=3, seed=1)
    >>> refuel_plan(s, 0) is None  # round 1's auction: not buying now
    True
    """
    if not any(e["type"] == "buy_resources" for e in legal(state, seat)):
        return None
    p = state.players[seat]
    target = len(p.cities) if cities is None else cities
    if target <= 0 or not p.plants:
        return None
    have: dict[str, int] = dict(zip(NAMES, p.res, strict=True))
    offered: dict[str, list[int]] = {
        r: market_prices(i, state.resources[i]) for i, r in enumerate(NAMES)
    }
    options: list[tuple[int, int, int, dict[str, int]]] = []
    plants = list(p.plants)
    for mask in range(1, 1 << len(plants)):
        chosen = [plants[i] for i in range(len(plants)) if mask >> i & 1]
        powered = min(target, sum(PLANTS[x].powers for x in chosen))
        bought = _lack(chosen, have, offered)
        if bought is None:
            continue
        cost = sum(sum(offered[r][:n]) for r, n in bought.items())
        options.append((-powered, cost, sum(bought.values()), bought))
    options.sort(key=lambda o: (o[0], o[1], o[2], sorted(o[3].items())))
    for neg_powered, cost, _n, bought in options:
        amounts = {r: n for r, n in bought.items() if n}
        if not amounts:
            return None  # what is held already powers them
        try:
            apply(state, seat, {"type": "buy_resources", **amounts})
        except IllegalAction:
            continue  # cannot store or pay all of it: fewer cities
        return Refuel(amounts, cost, -neg_powered)
    return None


def _lack(
    plants: list[int], have: dict[str, int], offered: dict[str, list[int]]
) -> dict[str, int] | None:
    """The tokens ``plants`` lack to all run once with ``have`` held (None: the market has too
    few); a hybrid takes held coal and oil left over first, then the cheaper of the two."""
    need: dict[str, int] = dict.fromkeys(NAMES, 0)
    hybrid = 0
    for plant in plants:
        card = PLANTS[plant]
        if card.fuel == "hybrid":
            hybrid += card.burns
        elif card.fuel in need:
            need[card.fuel] += card.burns
    lack: dict[str, int] = {r: max(0, need[r] - have[r]) for r in NAMES}
    hybrid -= sum(max(0, have[r] - need[r]) for r in ("coal", "oil"))
    for _ in range(max(0, hybrid)):
        costs = {r: offered[r][lack[r]] for r in ("coal", "oil") if lack[r] < len(offered[r])}
        if not costs:
            return None
        cheaper = min(costs, key=lambda r: (costs[r], r != "coal"))
        lack[cheaper] += 1
    if any(lack[r] > len(offered[r]) for r in NAMES):
        return None
    return lack


def refuel(state: State, seat: int, *, cities: int | None = None) -> dict[str, int] | None:
    """The amounts of ``refuel_plan`` (None when it suggests nothing)."""
    plan = refuel_plan(state, seat, cities=cities)
    return None if plan is None else plan.amounts


def capacity(state: State, seat: int) -> int:
    """The cities all of ``seat``'s plants power together."""
    return sum(PLANTS[x].powers for x in state.players[seat].plants)
