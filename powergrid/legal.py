"""``legal``: the moves a seat may send now, in the API's shape (empty when nothing is awaited)."""

from __future__ import annotations

from typing import Any

from powergrid.phases.auction import current_market
from powergrid.phases.build import city_limit
from powergrid.plants import PLANTS
from powergrid.power import best_power, burn_need, can_fire, capacity, room_for
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, RESOURCES, State
from powergrid.tables import BUILD_COSTS, MARKET_PRICES
from powergrid.tables import RESOURCES as NAMES
from powergrid.turns import to_act


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    s = state
    if type(seat) is not int or not 0 <= seat < s.n:
        return []
    phase = s.phase
    if phase == AUCTION:
        awaited = to_act(s)
        if not awaited or awaited[0] != seat:
            return []
        return _auction(s, seat)
    if phase in (RESOURCES, BUILD):
        if s.order[s.n - 1 - s.turn] != seat:
            return []
        return [_resources(s, seat)] if phase == RESOURCES else [_build(s, seat)]
    if phase == BUREAUCRACY:
        if s.done[seat]:
            return []
        return [_power(s, seat)]
    return []


def _auction(s: State, seat: int) -> list[dict[str, Any]]:
    p = s.players[seat]
    money = p.money
    if s.discard is not None:
        new = s.discard[1]
        return [{"type": "discard_plant", "plants": [n for n in p.plants if n != new]}]
    auc = s.auction
    if auc is not None:
        out: list[dict[str, Any]] = []
        if money > auc.bid:
            out.append({"type": "bid", "min": auc.bid + 1, "max": money})
        out.append({"type": "pass_bid"})
        return out
    plants = [{"number": n, "min_bid": n} for n in current_market(s) if n <= money]
    out = []
    if plants:
        out.append({"type": "choose_plant", "plants": plants, "max_bid": money})
    if s.round > 1:
        out.append({"type": "pass_auction"})
    return out


def _resources(s: State, seat: int) -> dict[str, Any]:
    p = s.players[seat]
    caps = capacity(p.plants)
    market = s.resources
    money = p.money
    maxes: dict[str, int] = {}
    prices: dict[str, list[int]] = {}
    for r in range(4):
        k = min(room_for(p.res, caps, r), market[r])
        bought: list[int] = []
        if k:
            table = MARKET_PRICES[r]
            start = len(table) - market[r]
            spent = 0
            for price in table[start : start + k]:
                if spent + price > money:
                    break
                spent += price
                bought.append(price)
        maxes[NAMES[r]] = len(bought)
        if bought:
            prices[NAMES[r]] = bought
    return {"type": "buy_resources", "max": maxes, "prices": prices}


def build_costs(s: State, seat: int) -> dict[str, int]:
    """Every city ``seat`` could add now, with its cost if added alone."""
    p = s.players[seat]
    if len(p.cities) >= city_limit(s):
        return {}
    board = s.board
    dist = board.to_network(p.cities)
    occupied = s.cities
    step = s.step
    money = p.money
    out: dict[str, int] = {}
    cheapest = money - BUILD_COSTS[0]  # no city further away than this is affordable
    for c, d in zip(board.cities, dist, strict=True):
        if d > cheapest:
            continue
        occ = occupied.get(c)
        if occ is None:
            out[c] = BUILD_COSTS[0] + d
            continue
        k = len(occ)
        if k >= step or seat in occ:
            continue
        cost = BUILD_COSTS[k] + d
        if cost <= money:
            out[c] = cost
    return out


def _build(s: State, seat: int) -> dict[str, Any]:
    return {"type": "build", "cities": build_costs(s, seat)}


def _power(s: State, seat: int) -> dict[str, Any]:
    p = s.players[seat]
    able = [n for n in p.plants if can_fire(p.res, burn_need((n,)))]
    best = best_power(p.plants, p.res, len(p.cities))
    return {"type": "power", "plants": able, "max_cities": best[1]}


__all__ = ["PLANTS", "build_costs", "legal"]
