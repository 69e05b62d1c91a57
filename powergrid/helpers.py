"""Helpers for clients and bots: build quotes and the best power choice for a seat."""

from __future__ import annotations

from powergrid.phases.build import quote
from powergrid.power import best_power as _best_power
from powergrid.power import hybrid_split
from powergrid.state import State


def quote_build(state: State, seat: int, cities: list[str] | tuple[str, ...]) -> int:
    """The cost for ``seat`` of adding ``cities`` now, at the cheapest order the rules allow
    (build spaces plus the minimum connection cost). Raises ``IllegalAction`` when a city cannot
    be added (not in play, full, already theirs, over the city limit); money is not checked."""
    return quote(state, seat, list(cities))


def best_power(state: State, seat: int) -> tuple[tuple[int, ...], dict[int, tuple[int, int]], int]:
    """The best plants for ``seat`` to fire: (plants, hybrid split {plant: (coal, oil)}, cities).

    Most cities powered (capped at the cities owned), then the fewest tokens burnt, then the
    fewest plants, then the lowest numbers; hybrids burn coal before oil."""
    p = state.players[seat]
    fired, powered, _ = _best_power(p.plants, p.res, len(p.cities))
    return fired, hybrid_split(fired, p.res), powered
