"""The maps as the API and the lobby describe them: a map's own set-up rules, its summary in
the list of maps, and the whole map. Read from the engine's map files, not the database.
"""

from __future__ import annotations

from games import engine, shapes
from powergrid.shapes import Resource
from powergrid.tables import RESOURCES, market_prices


def map_rules_for(slug: str) -> shapes.MapRules:
    """A map's own set-up rules as the API and the lobby describe them: the tokens each resource
    market starts with and the cheapest price, the plant on top of the deck, the plants out of
    the game, the areas that must be in play, and the rules in words (English)."""
    rules = engine.map_rules(slug)
    gmap = engine.map_load(slug)
    market: dict[Resource, int] = dict(zip(RESOURCES, rules.starting_market, strict=True))
    cheapest: dict[Resource, int | None] = {}
    for i, (r, n) in enumerate(market.items()):
        prices = market_prices(i, n)
        cheapest[r] = prices[0] if prices else None
    return {
        "starting_market": market,
        "cheapest_price": cheapest,
        "top_plant": rules.top_plant,
        "removed_plants": list(engine.removed_plants(slug)),
        "required_areas": sorted(gmap.required_areas),
        "notes": list(rules.notes),
    }


def map_summary(slug: str) -> shapes.MapSummary:
    """A map as ``GET /api/v1/maps/`` lists it: names, areas and its rules."""
    d = engine.map_load(slug).to_dict()
    return {
        "slug": d["slug"],
        "name_en": d["name_en"],
        "name_ja": d["name_ja"],
        "areas": d["areas"],
        "required_areas": d["required_areas"],
        "rules": map_rules_for(slug),
    }


def map_detail(slug: str) -> shapes.Map:
    """A whole map (cities, connections, drawing area) with its rules."""
    out: shapes.Map = {**engine.map_load(slug).to_dict(), "rules": map_rules_for(slug)}
    return out
