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


def refuel(state: State, seat: int) -> dict[str, int] | None:
    """The tokens ``seat``'s plants lack to all run once, as a ``buy_resources`` action's amounts
    (``{resource: n}``), or None when nothing is lacking or the phase is not the seat's turn to
    buy or not all of it can be stored and paid now. A hybrid's lack is bought as whichever of
    coal and oil is cheaper, token by token. What a turn email's one-tap "buy the fuel" offers.

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=3, seed=1)
    >>> refuel(s, 0) is None  # round 1's auction: not buying now
    True
    """
    if not any(e["type"] == "buy_resources" for e in legal(state, seat)):
        return None
    p = state.players[seat]
    need: dict[str, int] = dict.fromkeys(NAMES, 0)
    hybrid = 0
    for plant in p.plants:
        card = PLANTS[plant]
        if card.fuel == "hybrid":
            hybrid += card.burns
        elif card.fuel in need:
            need[card.fuel] += card.burns
    have: dict[str, int] = dict(zip(NAMES, p.res, strict=True))
    lack: dict[str, int] = {r: max(0, need[r] - have[r]) for r in NAMES}
    hybrid -= sum(max(0, have[r] - need[r]) for r in ("coal", "oil"))
    offered: dict[str, list[int]] = {
        r: market_prices(i, state.resources[i]) for i, r in enumerate(NAMES)
    }
    for _ in range(max(0, hybrid)):
        costs = {r: offered[r][lack[r]] for r in ("coal", "oil") if lack[r] < len(offered[r])}
        if not costs:
            return None
        cheaper = min(costs, key=lambda r: (costs[r], r != "coal"))
        lack[cheaper] += 1
    amounts = {r: n for r, n in lack.items() if n}
    if not amounts:
        return None
    try:
        apply(state, seat, {"type": "buy_resources", **amounts})
    except IllegalAction:
        return None  # cannot store or pay all of it: no suggestion
    return amounts
