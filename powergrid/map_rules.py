"""The set-up rules of each map: what differs from the base game on that board.

The seeds (002) give France and Italy rules of their own: other starting resource markets, another
plant on top of the deck, a plant out of the game. They live in ``data/map_rules.json`` beside the
maps (a map not listed there plays the base game's set-up); ``GameMap.required_areas`` (in the
map's own file) says which areas must be in play. Plants a rules edition takes out of the game on a
map are the edition's (``powergrid.editions``), not the map's.

>>> rules_for("italy").starting_market
(18, 15, 12, 2)
>>> rules_for("france").top_plant
11
>>> rules_for("germany") == MapRules()
True
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from powergrid.tables import RESOURCES, STARTING_MARKET, TOP_PLANT

_DATA = Path(__file__).resolve().parent / "data" / "map_rules.json"


@dataclass(frozen=True, slots=True)
class MapRules:
    """A map's set-up: tokens in each resource market at the start (coal, oil, garbage,
    uranium, placed from the most expensive space down), the plant put on top of the deck, and
    the rules in words (English, for the lobby and the API).
    ``new_deck_removed``: numbers of the New Power Plants deck out of the game when that deck is
    played alone (seed 001, variant 1: France plays without its 11, the deck's top card)."""

    starting_market: tuple[int, int, int, int] = STARTING_MARKET
    top_plant: int = TOP_PLANT
    new_deck_removed: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()


@functools.cache
def _all() -> dict[str, MapRules]:
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    out: dict[str, MapRules] = {}
    for slug, d in data["maps"].items():
        market = list(STARTING_MARKET)
        for r, n in d.get("starting_market", {}).items():
            market[RESOURCES.index(r)] = int(n)
        out[slug] = MapRules(
            starting_market=(market[0], market[1], market[2], market[3]),
            top_plant=int(d.get("top_plant", TOP_PLANT)),
            new_deck_removed=tuple(int(n) for n in d.get("new_deck_removed", ())),
            notes=tuple(d.get("notes", ())),
        )
    return out


def rules_for(map_slug: str) -> MapRules:
    """The set-up rules of a map (the base game's for a map without rules of its own)."""
    return _all().get(map_slug, MapRules())
