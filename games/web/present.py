"""Turns the player's view of the state (``games.selectors.game_state_for``) into what the game
page's templates draw: plant cards, the resource track, player panels, the forms awaited."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from games.describe import resource_label
from games.shapes import State
from powergrid.plants import BASE_PLANTS, NEW_PLANTS, RANK
from powergrid.shapes import (
    BidMove,
    BuildMove,
    BuyResourcesMove,
    ChoosePlantMove,
    Colour,
    DiscardPlantMove,
    Fuel,
    LegalMove,
    OwnedPlant,
    PassAuctionMove,
    PassBidMove,
    Plant,
    PowerMove,
    Resource,
    ResourcePrices,
    ResultRow,
    SealBidMove,
    Step3Card,
    Tokens,
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


#: Each fuel's words (translated when asked: one lookup per plant drawn, not seven).
FUEL_LABELS = {
    "coal": gettext_noop("coal"),
    "oil": gettext_noop("oil"),
    "hybrid": gettext_noop("coal or oil"),
    "garbage": gettext_noop("garbage"),
    "uranium": gettext_noop("uranium"),
    "ecological": gettext_noop("ecological"),
    "fusion": gettext_noop("fusion"),
}


def fuel_label(fuel: str) -> str:
    label = FUEL_LABELS.get(fuel)
    return _(label) if label else fuel


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


# -- what the page draws: page-only shapes, each made from the declared state's parts ----------


class PlantCard(TypedDict):
    """A plant as the page draws it (``_plant.html``): the declared ``Plant``'s keys, with the
    id a form sends, its deck, the fuel in words and one glyph per token burnt."""

    number: int
    id: int
    deck: Literal["base", "new"]
    fuel: Fuel
    fuel_label: str
    burns: int
    powers: int
    icons: list[str]
    capacity: int


class Step3CardView(TypedDict):
    """The Step 3 card in the market, as the page draws it."""

    step3: Literal[True]
    number: Literal["step3"]


class OwnedCard(PlantCard):
    """A player's plant with the tokens on it, one glyph each."""

    stored: list[Resource]


class ChooseCard(PlantCard):
    """A plant the auction form offers, with its minimum bid; ``checked``: the one ticked."""

    min_bid: int
    checked: bool


class DiscardCard(OwnedCard):
    checked: bool


class PowerCard(OwnedCard):
    """A plant of the power form: ``able`` to fire now, ``checked`` to fire, the coal a hybrid
    burns of the engine's best choice (or of the refused form)."""

    able: bool
    checked: bool
    hybrid_coal: int | str | None


def plant_card(p: Plant) -> PlantCard:
    fuel = p["fuel"]
    return {
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


def market_card(p: Plant | Step3Card) -> PlantCard | Step3CardView:
    """A card of the plant market: a plant, or the Step 3 card."""
    if "step3" in p:
        return {"step3": True, "number": "step3"}
    return plant_card(p)


def owned_card(p: OwnedPlant) -> OwnedCard:
    """A player's plant card with the tokens on it, one glyph each."""
    stored = p["stored"]
    return {**plant_card(p), "stored": [r for r in RESOURCES for _ in range(stored.get(r, 0))]}


class TrackSpace(TypedDict):
    price: int
    tokens: range
    empty: range


class TrackRow(TypedDict):
    """One resource's row of the board's track."""

    resource: Resource
    label: str
    spaces: list[TrackSpace]
    count: int
    cheapest: int | None


def resource_track(market: ResourcePrices) -> list[TrackRow]:
    """Each resource's spaces (price, places, tokens present), drawn like the board's track."""
    out: list[TrackRow] = []
    for i, r in enumerate(RESOURCES):
        present = market[r]
        counts: dict[int, int] = {}
        for price in present:
            counts[price] = counts.get(price, 0) + 1
        spaces: list[TrackSpace] = []
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


def deck_cards(plant_deck: str | None) -> list[PlantCard]:
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


class ResupplyRow(TypedDict):
    step: int
    counts: list[int]
    current: bool


def resupply_rows(players: int, step: int) -> list[ResupplyRow]:
    table = RESUPPLY.get(players, ())
    return [
        {"step": s + 1, "counts": list(row), "current": s + 1 == step}
        for s, row in enumerate(table)
    ]


class PlayerPanel(TypedDict):
    """A player's panel beside the board: the declared ``Player`` seen by the page (the number
    of cities, the plants drawn, what they can power, their place in the player order)."""

    position: int
    seat: int
    name: str
    username: str
    colour: Colour
    colour_label: str
    cities: int
    can_power: int
    plants: list[OwnedCard]
    money: int | None
    is_you: bool
    to_act: bool
    resources: Tokens
    powered: int
    result: ResultRow | None


def player_panels(state: State, viewer: int | None) -> list[PlayerPanel]:
    by_seat = {p["seat"]: p for p in state["players"]}
    to_act = set(state["to_act"])
    result = {r["seat"]: r for r in (state["result"] or [])}
    panels: list[PlayerPanel] = []
    for pos, seat in enumerate(state["order"]):
        p = by_seat[seat]
        plants = [owned_card(x) for x in p["plants"]]
        capacity = sum(x["powers"] for x in plants)
        panels.append(
            {
                "position": pos + 1,
                "seat": seat,
                "name": p["name"],
                "username": p["username"],
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


class StepFacts(TypedDict):
    step2: int
    end: int
    max_plants: int


def step_facts(players: int) -> StepFacts | None:
    row = PLAYER_COUNTS.get(players)
    if row is None:
        return None
    return {"step2": row.step2_cities, "end": row.end_cities, "max_plants": row.max_plants}


def thresholds(state: State) -> dict[str, int | None]:
    """The city counts that change the game, for the line under the board: step 2 starts when a
    player connects ``step2`` cities (None in the first-game variant, which stays in step 1), and
    the game ends when one connects ``end``."""
    table = PLAYER_COUNTS[state["players_count"]]
    if state["variant"] == FIRST_GAME:
        return {"step2": None, "end": FIRST_GAME_END}
    return {"step2": table.step2_cities, "end": table.end_cities}


#: What a move form was about (``form_meaning``): kept in the session as JSON, so a list.
FormMeaning = list[str | int | bool | list[int] | None]


def form_meaning(state: State) -> FormMeaning:
    """What a move form filled in on ``state`` is about, as a comparable value: the phase, the
    round and step, whether the viewer is asked, the plant under auction, and (choosing a plant)
    the plants on offer. A refused form's inputs are put back only while the state the player
    sees now has the same meaning as the one they filled it in on: a bid typed for plant 4 must not
    stand in the box when the auction is now for plant 5 (``games.web.cards.viewing``)."""
    auction = state["auction"]
    plant = auction["plant"] if auction else None
    offered: list[int] = []
    if state["phase"] == "auction" and auction is None:
        offered = [plant_id(p) for p in state["plant_market"]["current"] if "step3" not in p]
    return [
        state["phase"],
        state["round"],
        state["step"],
        state["seat"] in state["to_act"],
        None if plant is None else plant_id(plant),
        offered,
    ]
