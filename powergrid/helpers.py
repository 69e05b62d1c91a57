"""Helpers for clients and bots: build quotes and the best power choice for a seat."""

from __future__ import annotations

from typing import NamedTuple

from powergrid.phases.build import quote
from powergrid.power import best_power as _best_power
from powergrid.power import hybrid_split
from powergrid.state import State


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
