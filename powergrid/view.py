"""``view``: the JSON-ready state one seat (or a spectator) may see. Nothing secret leaves here:
other players' money, the deck order, the plants removed at setup and the seed stay out."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from powergrid.legal import legal
from powergrid.plants import PLANTS, STEP3
from powergrid.power import assign
from powergrid.state import FINISHED, State
from powergrid.tables import COLOURS, CURRENT_SIZE, RESOURCES, market_prices
from powergrid.turns import to_act

#: Every card's JSON object, made once; the view hands out copies (its result is the caller's).
_PLANT_DICTS: dict[int, dict[str, Any]] = {n: p.to_dict() for n, p in PLANTS.items()}
_PLANT_DICTS[STEP3] = {"step3": True}


def plant_dict(number: int) -> dict[str, Any]:
    return _PLANT_DICTS[number].copy()


@lru_cache(maxsize=1 << 12)
def _stored(
    plants: tuple[int, ...], res: tuple[int, int, int, int]
) -> tuple[tuple[dict[str, Any], dict[str, int]], ...]:
    """Per plant (in order): its JSON object and its stored tokens (shared: copy before use)."""
    placed = assign(plants, res)
    return tuple((_PLANT_DICTS[n], placed[n]) for n in plants)


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    s = state
    viewer = seat if type(seat) is int and 0 <= seat < s.n else None
    finished = s.phase == FINISHED
    players = []
    for i, p in enumerate(s.players):
        players.append(
            {
                "seat": i,
                "name": None,
                "colour": COLOURS[i % len(COLOURS)],
                "money": p.money if (i == viewer or finished) else None,
                "cities": list(p.cities),
                "plants": [{**d, "stored": {**st}} for d, st in _stored(p.plants, p.res)],
                "resources": {RESOURCES[r]: p.res[r] for r in range(4)},
            }
        )
    if s.step == 3:
        current, future = list(s.market), []
    else:
        current, future = list(s.market[:CURRENT_SIZE]), list(s.market[CURRENT_SIZE:])
    auc = s.auction
    cities: dict[str, list[int]] = {c: [] for c in s.board.cities}
    for c, seats in s.cities.items():
        cities[c] = list(seats)
    out: dict[str, Any] = {
        "map": s.map,
        "areas": list(s.areas),
        "variant": s.variant,
        "players_count": s.n,
        "round": s.round,
        "step": s.step,
        "phase": s.phase,
        "order": list(s.order),
        "to_act": list(to_act(s)),
        "deadline": None,
        "players": players,
        "plant_market": {
            "current": [plant_dict(n) for n in current],
            "future": [plant_dict(n) for n in future],
        },
        "deck_size": len(s.deck),
        "removed": [plant_dict(n) for n in s.removed],
        "step3_card_in_market": STEP3 in s.market,
        "resource_market": {RESOURCES[r]: market_prices(r, s.resources[r]) for r in range(4)},
        "supply": dict(zip(RESOURCES, s.supply(), strict=True)),
        "auction": None
        if auc is None
        else {
            "plant": plant_dict(auc.plant),
            "high_bid": auc.bid,
            "high_bidder": auc.high,
            "bidders": list(auc.bidders),
            "to_bid": auc.turn,
            "opener": auc.opener,
        },
        "pending_discard": None
        if s.discard is None
        else {"seat": s.discard[0], "plant_bought": s.discard[1]},
        "cities": cities,
        "powered": list(s.powered),
        "legal": legal(s, viewer) if viewer is not None else [],
        "result": None,
    }
    if finished and s.result is not None:
        out["result"] = [
            {"seat": i, "powered": r[0], "money": r[1], "cities": r[2], "rank": r[3]}
            for i, r in enumerate(s.result)
        ]
    return out
