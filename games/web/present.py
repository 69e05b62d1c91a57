"""Turns the player's view of the state (``games.selectors.game_state_for``) into what the game
page's templates draw: plant cards, the resource track, player panels, the forms awaited."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.describe import resource_label
from games.shapes import State
from powergrid.plants import BASE_PLANTS, NEW_PLANTS, RANK
from powergrid.shapes import (
    BidMove,
    BuildMove,
    BuyResourcesMove,
    ChoosePlantMove,
    DiscardPlantMove,
    LegalMove,
    OwnedPlant,
    PassAuctionMove,
    PassBidMove,
    Plant,
    PowerMove,
    ResourcePrices,
    SealBidMove,
    Step3Card,
)
from powergrid.state import FIRST_GAME, MIXED_DECK, NEW_DECK
from powergrid.tables import (
    FIRST_GAME_END,
    INCOME,
    MARKET_PRICES,
    MIXED_BASE_OUT,
    PLAYER_COUNTS,
    RESOURCES,
    RESUPPLY,
)

FUEL_TOKENS = {
    "coal": ["coal"],
    "oil": ["oil"],
    "hybrid": ["coal", "oil"],
    "garbage": ["garbage"],
    "uranium": ["uranium"],
    "ecological": [],
    "fusion": [],
}


def fuel_label(fuel: str) -> str:
    return {
        "coal": _("coal"),
        "oil": _("oil"),
        "hybrid": _("coal or oil"),
        "garbage": _("garbage"),
        "uranium": _("uranium"),
        "ecological": _("ecological"),
        "fusion": _("fusion"),
    }.get(fuel, fuel)


def colour_label(colour: str) -> str:
    return {
        "red": pgettext("player colour", "red"),
        "blue": pgettext("player colour", "blue"),
        "green": pgettext("player colour", "green"),
        "yellow": pgettext("player colour", "yellow"),
        "purple": pgettext("player colour", "purple"),
        "black": pgettext("player colour", "black"),
    }.get(colour, colour)


class LegalByType(TypedDict):
    """The caller's legal moves (``State.legal``) by type, each with its own shape."""

    choose_plant: NotRequired[ChoosePlantMove]
    pass_auction: NotRequired[PassAuctionMove]
    bid: NotRequired[BidMove]
    seal_bid: NotRequired[SealBidMove]
    pass_bid: NotRequired[PassBidMove]
    discard_plant: NotRequired[DiscardPlantMove]
    buy_resources: NotRequired[BuyResourcesMove]
    build: NotRequired[BuildMove]
    power: NotRequired[PowerMove]


def legal_by_type(moves: list[LegalMove]) -> LegalByType:
    """The legal moves keyed by type (what the page's forms look up)."""
    out: LegalByType = {}
    for m in moves:
        if m["type"] == "choose_plant":
            out["choose_plant"] = m
        elif m["type"] == "pass_auction":
            out["pass_auction"] = m
        elif m["type"] == "bid":
            out["bid"] = m
        elif m["type"] == "seal_bid":
            out["seal_bid"] = m
        elif m["type"] == "pass_bid":
            out["pass_bid"] = m
        elif m["type"] == "discard_plant":
            out["discard_plant"] = m
        elif m["type"] == "buy_resources":
            out["buy_resources"] = m
        elif m["type"] == "build":
            out["build"] = m
        else:
            out["power"] = m
    return out


def plant_id(p: Plant) -> int:
    """What a move names a plant by: a New Power Plants card's id, else its number."""
    return p.get("id", p["number"])


def plant_card(p: Plant | Step3Card) -> dict[str, Any]:
    if "step3" in p:
        return {"step3": True, "number": "step3"}
    fuel = p["fuel"]
    card = {
        "number": p["number"],
        # What a form sends: a New Power Plants card's id (100 + number), else the number.
        "id": p.get("id", p["number"]),
        "deck": p.get("deck", "base"),
        "fuel": fuel,
        "fuel_label": fuel_label(fuel),
        "burns": p["burns"],
        "powers": p["powers"],
        # icons: one token glyph per resource burnt (hybrids show a mixed token)
        "icons": ["hybrid" if fuel == "hybrid" else fuel] * p["burns"],
        "capacity": 2 * p["burns"],
    }
    return card


def owned_card(p: OwnedPlant) -> dict[str, Any]:
    """A player's plant card with the tokens on it, one glyph each."""
    stored = p["stored"]
    return {**plant_card(p), "stored": [r for r in RESOURCES for _ in range(stored.get(r, 0))]}


def resource_track(market: ResourcePrices) -> list[dict[str, Any]]:
    """Each resource's spaces (price, places, tokens present), drawn like the board's track."""
    out = []
    for i, r in enumerate(RESOURCES):
        present = market[r]
        counts: dict[int, int] = {}
        for price in present:
            counts[price] = counts.get(price, 0) + 1
        spaces = []
        places: dict[int, int] = {}
        for price in MARKET_PRICES[i]:
            places[price] = places.get(price, 0) + 1
        for price, n in places.items():
            have = counts.get(price, 0)
            spaces.append({"price": price, "tokens": range(have), "empty": range(n - have)})
        out.append(
            {
                "resource": r,
                "label": resource_label(r),
                "spaces": spaces,
                "count": len(present),
                "cheapest": present[0] if present else None,
            }
        )
    return out


def deck_cards(plant_deck: str | None) -> list[dict[str, Any]]:
    """The reference panel's list of a New Power Plants game's cards, in market order (new deck:
    its 42 plants; mixed: both decks, the base 17 and 18 left out). Empty for the base deck,
    whose cards players know."""
    if plant_deck == NEW_DECK:
        cards = list(NEW_PLANTS.values())
    elif plant_deck == MIXED_DECK:
        cards = [p for p in BASE_PLANTS.values() if p.number not in MIXED_BASE_OUT]
        cards += NEW_PLANTS.values()
    else:
        return []
    cards.sort(key=lambda p: RANK[p.id])
    return [plant_card(p.to_dict()) for p in cards]


def areas_by_player_count() -> str:
    """The areas in play per player count ("2 players: 3, 3 players: 3, ..."), from the rules'
    table, with the reader's list punctuation (a Japanese list is joined by 、, not a comma)."""
    return _(", ").join(
        _("%(n)s players: %(a)s") % {"n": n, "a": row.areas}
        for n, row in sorted(PLAYER_COUNTS.items())
    )


def income_rows() -> list[tuple[str, int]]:
    return [(f"{i}" if i < len(INCOME) - 1 else f"{i}+", v) for i, v in enumerate(INCOME)]


def resupply_rows(players: int, step: int) -> list[dict[str, Any]]:
    table = RESUPPLY.get(players, ())
    return [
        {"step": s + 1, "counts": list(row), "current": s + 1 == step}
        for s, row in enumerate(table)
    ]


def player_panels(state: State, viewer: int | None) -> list[dict[str, Any]]:
    by_seat = {p["seat"]: p for p in state["players"]}
    to_act = set(state["to_act"])
    result = {r["seat"]: r for r in (state["result"] or [])}
    panels = []
    for pos, seat in enumerate(state["order"]):
        p = by_seat[seat]
        plants = [owned_card(x) for x in p["plants"]]
        capacity = sum(x.get("powers", 0) for x in plants if not x.get("step3"))
        panels.append(
            {
                "position": pos + 1,
                "seat": seat,
                "name": p["name"],
                "colour": p["colour"],
                "colour_label": colour_label(p["colour"]),
                "cities": len(p["cities"]),
                "can_power": capacity,
                "plants": plants,
                "money": p["money"],
                "is_you": seat == viewer,
                "to_act": seat in to_act,
                "resources": p["resources"],
                "powered": state["powered"][seat],
                "result": result.get(seat),
            }
        )
    return panels


def step_facts(players: int) -> dict[str, Any]:
    row = PLAYER_COUNTS.get(players)
    if row is None:
        return {}
    return {"step2": row.step2_cities, "end": row.end_cities, "max_plants": row.max_plants}


def thresholds(state: State) -> dict[str, int | None]:
    """The city counts that change the game, for the line under the board: step 2 starts when a
    player connects ``step2`` cities (None in the first-game variant, which stays in step 1), and
    the game ends when one connects ``end``."""
    table = PLAYER_COUNTS[state["players_count"]]
    if state["variant"] == FIRST_GAME:
        return {"step2": None, "end": FIRST_GAME_END}
    return {"step2": table.step2_cities, "end": table.end_cities}


def form_meaning(state: State) -> list[Any]:
    """What a move form filled in on ``state`` is about, as a comparable value: the phase, the
    round and step, whether the viewer is asked, the plant under auction, and (choosing a plant)
    the plants on offer. A refused form's inputs are put back only while the state the player
    sees now has the same meaning as the one they filled it in on: a bid typed for plant 4 must not
    stand in the box when the auction is now for plant 5 (``games.web.views._render_game``)."""
    auction = state.get("auction")
    plant = auction["plant"] if auction else None
    offered: list[Any] = []
    if state["phase"] == "auction" and auction is None:
        offered = [p.get("id", p.get("number")) for p in state["plant_market"]["current"]]
    return [
        state["phase"],
        state["round"],
        state["step"],
        state["seat"] in state["to_act"],
        None if plant is None else plant.get("id", plant.get("number")),
        offered,
    ]
