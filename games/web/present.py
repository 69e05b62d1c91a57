"""Turns the player's view of the state (``games.selectors.game_state_for``) into what the game
page's templates draw: plant cards, the resource track, player panels, the forms awaited."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.describe import resource_label
from powergrid.plants import BASE_PLANTS, NEW_PLANTS, RANK
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


def plant_card(p: dict[str, Any], *, stored: bool = False) -> dict[str, Any]:
    if p.get("step3"):
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
    if stored:
        st = p.get("stored") or {}
        card["stored"] = [r for r in RESOURCES for _ in range(int(st.get(r, 0)))]
    return card


def resource_track(market: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Each resource's spaces (price, places, tokens present), drawn like the board's track."""
    out = []
    for i, r in enumerate(RESOURCES):
        present = market.get(r, [])
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


def player_panels(state: dict[str, Any], viewer: int | None) -> list[dict[str, Any]]:
    by_seat = {p["seat"]: p for p in state["players"]}
    to_act = set(state.get("to_act") or [])
    result = {r["seat"]: r for r in (state.get("result") or [])}
    panels = []
    for pos, seat in enumerate(state["order"]):
        p = by_seat[seat]
        plants = [plant_card(x, stored=True) for x in p["plants"]]
        capacity = sum(x.get("powers", 0) for x in plants if not x.get("step3"))
        panels.append(
            {
                "position": pos + 1,
                "seat": seat,
                "name": p.get("name") or f"#{seat + 1}",
                "colour": p["colour"],
                "colour_label": colour_label(p["colour"]),
                "cities": len(p["cities"]),
                "can_power": capacity,
                "plants": plants,
                "money": p["money"],
                "is_you": seat == viewer,
                "to_act": seat in to_act,
                "resources": p["resources"],
                "powered": (state.get("powered") or [0] * (seat + 1))[seat],
                "result": result.get(seat),
            }
        )
    return panels


def step_facts(players: int) -> dict[str, Any]:
    row = PLAYER_COUNTS.get(players)
    if row is None:
        return {}
    return {"step2": row.step2_cities, "end": row.end_cities, "max_plants": row.max_plants}


def thresholds(state: dict[str, Any]) -> dict[str, int | None]:
    """The city counts that change the game, for the line under the board: step 2 starts when a
    player connects ``step2`` cities (None in the first-game variant, which stays in step 1), and
    the game ends when one connects ``end``."""
    table = PLAYER_COUNTS[state["players_count"]]
    if state.get("variant") == FIRST_GAME:
        return {"step2": None, "end": FIRST_GAME_END}
    return {"step2": table.step2_cities, "end": table.end_cities}
