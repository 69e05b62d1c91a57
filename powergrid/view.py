"""``view``: the JSON-ready state one seat (or a spectator) may see. Nothing secret leaves here:
other players' money, the deck order, the plants removed at setup and the seed stay out."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NotRequired, TypedDict

from powergrid.legal import LegalEntry, legal
from powergrid.plants import PLANTS, STEP3
from powergrid.power import assign
from powergrid.state import BASE_DECK, FINISHED, State
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


class PlayerView(TypedDict):
    """One player as a viewer sees them: ``money`` is None for the others until the end."""

    seat: int
    name: str | None
    colour: str
    money: int | None
    cities: list[str]
    plants: list[dict[str, Any]]
    resources: dict[str, int]


class AuctionView(TypedDict):
    plant: dict[str, Any]
    high_bid: int
    high_bidder: int
    bidders: list[int]
    to_bid: int | None
    opener: int
    #: Sealed-bid variant only: the seats whose sealed bid is in (not the amounts), and the
    #: viewer's own bid.
    sealed: NotRequired[bool]
    sealed_in: NotRequired[list[int]]
    your_sealed_bid: NotRequired[int]


class SealedView(TypedDict):
    """The last sealed auction, revealed once every bid was in (sealed-bid variant)."""

    plant: int
    winner: int
    price: int
    bids: dict[str, int]


class ResultRow(TypedDict):
    seat: int
    powered: int
    money: int
    cities: int
    rank: int


class View(TypedDict):
    """What one seat (or a spectator, seat None) may see: ``shared/API.md``'s state, less the
    server's own keys (game, seq, deadline, names)."""

    map: str
    areas: list[str]
    variant: str
    players_count: int
    round: int
    step: int
    phase: str
    order: list[int]
    to_act: list[int]
    deadline: str | None
    players: list[PlayerView]
    plant_market: dict[str, list[dict[str, Any]]]
    deck_size: int
    removed: list[dict[str, Any]]
    step3_card_in_market: bool
    resource_market: dict[str, list[int]]
    supply: dict[str, int]
    auction: AuctionView | None
    sealed_last: NotRequired[SealedView]
    #: Only with a New Power Plants deck: ``new`` (variant 1) or ``mixed`` (variant 2).
    plant_deck: NotRequired[str]
    pending_discard: dict[str, int] | None
    cities: dict[str, list[int]]
    powered: list[int]
    legal: list[LegalEntry]
    result: list[ResultRow] | None


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
    out: View = {
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
    if auc is not None and auc.sealed is not None:
        # Sealed bids: who has given one, never how much (a viewer sees its own).
        a = out["auction"]
        assert a is not None
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
        out["plant_deck"] = s.plant_deck
    if finished and s.result is not None:
        out["result"] = [
            {"seat": i, "powered": r[0], "money": r[1], "cities": r[2], "rank": r[3]}
            for i, r in enumerate(s.result)
        ]
    return out
