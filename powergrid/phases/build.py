"""Phase 4: building, in reverse player order, and what follows it (step 2, the end of the game)."""

from __future__ import annotations

from typing import Any

from powergrid.editions import edition
from powergrid.errors import IllegalAction, plain, shown
from powergrid.network import INF
from powergrid.plant_market import PlantMarketOps
from powergrid.plants import NUMBER
from powergrid.power import best_power
from powergrid.state import BUILD, BUREAUCRACY, FINISHED, State
from powergrid.tables import BUILD_COSTS, FIRST_GAME_END, PLAYER_COUNTS


def city_limit(s: State) -> int | None:
    """The most cities a player may have: 7 in the first game; else none (seed 000: the stock of
    houses is unlimited), or 22 in games of the first rules edition."""
    if s.first_game:
        return FIRST_GAME_END
    return edition(s.edition).house_limit


def quote(s: State, seat: int, cities: list[str] | tuple[str, ...]) -> int:
    """The cost of adding ``cities`` at the cheapest order the rules allow; raises
    :class:`IllegalAction` if they cannot all be added now (money aside)."""
    board = s.board
    index = board.index
    occupied = s.cities
    step = s.step
    own = s.players[seat].cities
    seen: set[str] = set()
    total = 0
    for c in cities:
        if type(c) is not str:
            raise IllegalAction("invalid_field", "Cities are given by their slugs (strings).")
        if c not in index:
            raise IllegalAction(
                "city_not_in_play", f"There is no city {shown(c)} in play.", {"city": plain(c)}
            )
        if c in seen:
            raise IllegalAction("invalid_field", f"The city {c!r} is listed twice.", {"city": c})
        seen.add(c)
        occ = occupied.get(c, ())
        if seat in occ:
            raise IllegalAction("already_in_city", f"You are already in {c!r}.", {"city": c})
        if len(occ) >= step:
            raise IllegalAction(
                "city_full",
                f"{c!r} has no free build space in step {step}.",
                {"city": c, "step": step},
            )
        total += BUILD_COSTS[len(occ)]
    limit = city_limit(s)
    if limit is not None and len(own) + len(cities) > limit:
        raise IllegalAction(
            "invalid_field",
            f"You may have at most {limit} cities.",
            {"max_cities": limit},
        )
    connect = board.connection_cost(own, tuple(cities))
    if connect >= INF:
        raise IllegalAction(
            "city_unreachable",
            "No connection leads there through the cities in play.",
            {"cities": list(cities)},
        )
    return total + connect


def build(s: State, seat: int, a: dict[str, Any]) -> State:
    cities = a.get("cities", [])
    if type(cities) is not list and type(cities) is not tuple:
        raise IllegalAction(
            "invalid_field", "The field 'cities' must be a list of city slugs.", {"field": "cities"}
        )
    if cities:
        if len(cities) > len(s.board.cities):
            # More than there are cities in play: refused before the list is read further.
            raise IllegalAction(
                "invalid_field", "Too many cities.", {"max_cities": len(s.board.cities)}
            )
        cost = quote(s, seat, cities)
        p = s.players[seat]
        if cost > p.money:
            raise IllegalAction(
                "insufficient_funds",
                f"Building there costs {cost} Elektro; you have {p.money}.",
                {"cost": cost, "money": p.money},
            )
        s = s.copy()
        q = p.copy()
        q.money -= cost
        q.cities = (*p.cities, *cities)
        players = list(s.players)
        players[seat] = q
        s.players = tuple(players)
        occupied = dict(s.cities)
        for c in cities:
            occupied[c] = (*occupied.get(c, ()), seat)
        s.cities = occupied
        market = s.market
        # Else the city-count rule removes nothing (it reads numbers, not ids).
        if market and NUMBER[market[0]] <= s.max_cities():
            ops = PlantMarketOps(s, BUILD)
            ops.settle()
            ops.commit()
    else:
        s = s.copy()
    s.turn += 1
    if s.turn == s.n:
        _end_build(s)
    return s


def _end_build(s: State) -> None:
    table = PLAYER_COUNTS[s.n]
    top = s.max_cities()
    if top >= (FIRST_GAME_END if s.first_game else table.end_cities):
        finish(s)
        return
    if not s.first_game and s.step == 1 and top >= table.step2_cities:
        s.step = 2
        ops = PlantMarketOps(s, BUILD)
        ops.remove_lowest()
        ops.draw()
        ops.settle()
        ops.commit()
    if s.step3_next:
        s.step = 3
        s.step3_next = False
    s.phase = BUREAUCRACY
    s.done = (False,) * s.n
    s.powered = (0,) * s.n
    s.turn = 0


def rank_key(s: State, seat: int, powered: int) -> tuple[int, ...]:
    p = s.players[seat]
    if s.first_game:
        return (powered, p.money)
    return (powered, p.money, len(p.cities))


def finish(s: State) -> None:
    """The end: everyone powers the most cities they can (no income); rank the players."""
    powered = tuple(best_power(p.plants, p.res, len(p.cities))[1] for p in s.players)
    keys = [rank_key(s, i, powered[i]) for i in range(s.n)]
    result = []
    for i in range(s.n):
        rank = 1 + sum(1 for k in keys if k > keys[i])
        result.append((powered[i], s.players[i].money, len(s.players[i].cities), rank))
    s.powered = powered
    s.result = tuple(result)
    s.phase = FINISHED
    s.turn = 0
