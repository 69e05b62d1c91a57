"""``legal``: the moves a seat may send now, in the API's shape (empty when nothing is awaited)."""

from __future__ import annotations

from powergrid.phases.auction import current_market
from powergrid.phases.build import city_limit
from powergrid.plants import NUMBER, PLANTS
from powergrid.power import best_power, burn_need, can_fire, capacity, room_for
from powergrid.shapes import (
    BuildMove,
    BuyResourcesMove,
    LegalMove,
    PlantChoice,
    PowerMove,
    Resource,
    tokens,
)
from powergrid.state import AUCTION, BUILD, RESOURCES, State
from powergrid.tables import BUILD_COSTS, MARKET_PRICES
from powergrid.tables import RESOURCES as NAMES
from powergrid.turns import awaits

#: The shape of each entry: ``powergrid.shapes`` (one class per move type, ``LegalMove``).
LegalEntry = LegalMove


def legal(state: State, seat: int) -> list[LegalMove]:
    """The moves ``seat`` may send now (empty when nothing is awaited from it).

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=3, seed=1)
    >>> [e["type"] for e in legal(s, s.order[0])]   # round 1: a plant must be bought
    ['choose_plant']
    >>> legal(s, s.order[1])
    []
    """
    s = state
    if type(seat) is not int or not 0 <= seat < s.n:
        return []
    if not awaits(s, seat):
        return []
    phase = s.phase
    if phase == AUCTION:
        return _auction(s, seat)
    if phase == RESOURCES:
        return [_resources(s, seat)]
    if phase == BUILD:
        return [_build(s, seat)]
    return [_power(s, seat)]


def _choice(plant: int) -> PlantChoice:
    """A plant one may put up: its number and minimum bid (the number), and for a new-deck card
    the ``id`` to name in the action (a base card's id is its number)."""
    number = NUMBER[plant]
    if number == plant:
        return {"number": number, "min_bid": number}
    return {"number": number, "id": plant, "min_bid": number}


def _auction(s: State, seat: int) -> list[LegalMove]:
    p = s.players[seat]
    money = p.money
    if s.discard is not None:
        new = s.discard[1]
        return [{"type": "discard_plant", "plants": [n for n in p.plants if n != new]}]
    auc = s.auction
    if auc is not None:
        out: list[LegalMove] = []
        if money > auc.bid:
            if auc.sealed is None:
                out.append({"type": "bid", "min": auc.bid + 1, "max": money})
            else:
                out.append({"type": "seal_bid", "min": auc.bid + 1, "max": money})
        out.append({"type": "pass_bid"})
        return out
    plants = [_choice(n) for n in current_market(s) if NUMBER[n] <= money]
    out = []
    if plants:
        out.append({"type": "choose_plant", "plants": plants, "max_bid": money})
    if s.round > 1:
        out.append({"type": "pass_auction"})
    return out


def _resources(s: State, seat: int) -> BuyResourcesMove:
    p = s.players[seat]
    caps = capacity(p.plants)
    market = s.resources
    money = p.money
    maxes = [0, 0, 0, 0]
    prices: dict[Resource, list[int]] = {}
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
        maxes[r] = len(bought)
        if bought:
            prices[NAMES[r]] = bought
    return {"type": "buy_resources", "max": tokens(maxes), "prices": prices}


def build_costs(s: State, seat: int) -> dict[str, int]:
    """Every city ``seat`` could add now, with its cost if added alone."""
    p = s.players[seat]
    limit = city_limit(s)
    if limit is not None and len(p.cities) >= limit:
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


def _build(s: State, seat: int) -> BuildMove:
    return {"type": "build", "cities": build_costs(s, seat)}


def _power(s: State, seat: int) -> PowerMove:
    p = s.players[seat]
    able = [n for n in p.plants if can_fire(p.res, burn_need((n,)))]
    best = best_power(p.plants, p.res, len(p.cities))
    return {"type": "power", "plants": able, "max_cities": best[1]}


__all__ = ["PLANTS", "build_costs", "legal"]
