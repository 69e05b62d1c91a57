"""``view``: the JSON-ready state one seat (or a spectator) may see. Nothing secret leaves here:
other players' money, the deck order, the plants removed at setup and the seed stay out."""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from powergrid.legal import legal
from powergrid.plants import PLANTS, STEP3
from powergrid.power import assign
from powergrid.shapes import (
    Auction,
    OwnedPlant,
    Phase,
    Plant,
    PlayerView,
    Resource,
    Step3Card,
    Variant,
    View,
    tokens,
)
from powergrid.state import BASE_DECK, FINISHED, State
from powergrid.tables import COLOURS, CURRENT_SIZE, market_prices
from powergrid.turns import to_act

#: Every card's JSON object, made once; the view hands out copies (its result is the caller's).
_PLANT_DICTS: dict[int, Plant] = {n: p.to_dict() for n, p in PLANTS.items()}


def plant_dict(number: int) -> Plant:
    """A plant card's JSON object (a copy). Not for the Step 3 card: see :func:`card_dict`."""
    return _PLANT_DICTS[number].copy()


def card_dict(number: int) -> Plant | Step3Card:
    """A card of the plant market or the removed pile: a plant, or the Step 3 card."""
    if number == STEP3:
        return {"step3": True}
    return _PLANT_DICTS[number].copy()


@lru_cache(maxsize=1 << 12)
def _stored(
    plants: tuple[int, ...], res: tuple[int, int, int, int]
) -> tuple[tuple[Plant, dict[Resource, int]], ...]:
    """Per plant (in order): its JSON object and its stored tokens (shared: copy before use)."""
    placed = assign(plants, res)
    return tuple((_PLANT_DICTS[n], cast(dict[Resource, int], placed[n])) for n in plants)


def _owned(plant: Plant, stored: dict[Resource, int]) -> OwnedPlant:
    out: OwnedPlant = {**plant, "stored": {**stored}}
    return out


def view(state: State, seat: int | None = None) -> View:
    """The state as ``seat`` may see it (``None``: a spectator), ready for JSON.

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=3, seed=1)
    >>> me = s.order[0]
    >>> v = view(s, me)
    >>> v["players"][me]["money"], [p["money"] for p in view(s)["players"]]
    (50, [None, None, None])
    >>> [e["type"] for e in v["legal"]]
    ['choose_plant']
    """
    s = state
    viewer = seat if type(seat) is int and 0 <= seat < s.n else None
    finished = s.phase == FINISHED
    players: list[PlayerView] = []
    for i, p in enumerate(s.players):
        players.append(
            {
                "seat": i,
                "colour": COLOURS[i % len(COLOURS)],
                "money": p.money if (i == viewer or finished) else None,
                "cities": list(p.cities),
                "plants": [_owned(d, st) for d, st in _stored(p.plants, p.res)],
                "resources": tokens(p.res),
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
    auction: Auction | None = None
    if auc is not None:
        auction = {
            "plant": plant_dict(auc.plant),
            "high_bid": auc.bid,
            "high_bidder": auc.high,
            "bidders": list(auc.bidders),
            "to_bid": auc.turn,
            "opener": auc.opener,
        }
    market = s.resources
    out: View = {
        "map": s.map,
        "areas": list(s.areas),
        "variant": cast(Variant, s.variant),
        "players_count": s.n,
        "round": s.round,
        "step": s.step,
        "phase": cast(Phase, s.phase),
        "order": list(s.order),
        "to_act": list(to_act(s)),
        "players": players,
        "plant_market": {
            "current": [card_dict(n) for n in current],
            "future": [card_dict(n) for n in future],
        },
        "deck_size": len(s.deck),
        "removed": [card_dict(n) for n in s.removed],
        "step3_card_in_market": STEP3 in s.market,
        "resource_market": {
            "coal": market_prices(0, market[0]),
            "oil": market_prices(1, market[1]),
            "garbage": market_prices(2, market[2]),
            "uranium": market_prices(3, market[3]),
        },
        "supply": tokens(s.supply()),
        "auction": auction,
        "pending_discard": None
        if s.discard is None
        else {"seat": s.discard[0], "plant_bought": s.discard[1]},
        "cities": cities,
        "powered": list(s.powered),
        "legal": legal(s, viewer) if viewer is not None else [],
        "result": None,
    }
    if auction is not None and auc is not None and auc.sealed is not None:
        # Sealed bids: who has given one, never how much (a viewer sees its own).
        a = auction
        a["to_bid"] = None
        a["sealed"] = True
        a["sealed_in"] = [i for i in auc.bidders if i != auc.opener and auc.sealed[i] != -1]
        if viewer is not None and viewer != auc.opener and auc.sealed[viewer] > 0:
            a["your_sealed_bid"] = auc.sealed[viewer]
    if s.sealed_last is not None:
        plant, winner, price, bids = s.sealed_last
        out["sealed_last"] = {
            "plant": plant,
            "winner": winner,
            "price": price,
            "bids": {str(i): b for i, b in enumerate(bids) if b > 0},
        }
    if s.plant_deck != BASE_DECK:
        out["plant_deck"] = "new" if s.plant_deck == "new" else "mixed"
    if finished and s.result is not None:
        out["result"] = [
            {"seat": i, "powered": r[0], "money": r[1], "cities": r[2], "rank": r[3]}
            for i, r in enumerate(s.result)
        ]
    return out
