"""The board in words: what the drawn map shows, as text a screen reader reads (and a phone
shows without zooming). Power Grid's board is public information and arithmetic, so everything a
sighted player reads off the picture is written here from the same state:

* the cities in play, by region, each with its owners in build order and the build-space prices
  still open in this step;
* the connections from one chosen city (its neighbours in play and what each link costs);
* for the player whose turn it is to build, the cheapest next cities with their total cost (the
  build space plus the cheapest connection to their network: the figure the cost calculator and
  ``powergrid.quote_build`` give for that one city).

It reads only the state the reader may see (``games.shapes.State``), so it works for the history
page as well, and hides nothing the picture does not show."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from django.utils.translation import gettext as _

from games.shapes import State
from games.templatetags.names import join_names
from games.web.common import lang
from games.web.markers import SHAPES
from games.web.present import colour_label
from powergrid.maps import load_map, name_in
from powergrid.network import INF, board_for
from powergrid.tables import BUILD_COSTS

#: How many next cities are listed for the builder (the cheapest first).
NEXT_CITIES = 6


class Owner(TypedDict):
    seat: int
    name: str
    colour: str
    shape: str
    #: The colour and the shape as the reader's language lists them ("red, circle"; "赤、円").
    marker: str


class CityWords(TypedDict):
    slug: str
    name: str
    owners: list[Owner]
    #: The build spaces still open in this step, their prices in the order they fill.
    open_prices: list[int]


class RegionWords(TypedDict):
    slug: str
    name: str
    cities: list[CityWords]


class Neighbour(TypedDict):
    slug: str
    name: str
    cost: int


class ConnectionsWords(TypedDict):
    #: The chosen city (its slug), "" when none is chosen.
    city: str
    city_name: str
    neighbours: list[Neighbour]
    #: Every city in play, (slug, name), by name: the select's options.
    choices: list[tuple[str, str]]


class NextCity(TypedDict):
    slug: str
    name: str
    space: int
    connection: int
    total: int


class BoardWords(TypedDict):
    regions: list[RegionWords]
    connections: ConnectionsWords
    #: The seat whose build is awaited (None outside the building phase).
    builder: int | None
    builder_name: str
    #: The builder's cheapest next cities, cheapest first.
    next_cities: list[NextCity]


def _owner(seat: int, names: dict[int, str], colours: Mapping[int, str]) -> Owner:
    colour = colours.get(seat, "")
    label, shape = colour_label(colour), shape_words().get(SHAPES.get(colour, ""), "")
    return {
        "seat": seat,
        "name": names.get(seat, "?"),
        "colour": label,
        "shape": shape,
        "marker": join_names(w for w in (label, shape) if w),
    }


def shape_words() -> dict[str, str]:
    """Each marker shape's name in the reader's language (``games.web.markers``)."""
    return {
        "circle": _("circle"),
        "square": _("square"),
        "triangle": _("triangle"),
        "diamond": _("diamond"),
        "triangle-down": _("downward triangle"),
        "cross": _("cross"),
    }


def next_cities(state: State, seat: int, limit: int = NEXT_CITIES) -> list[NextCity]:
    """``seat``'s cheapest cities to add one at a time, from the state it may see: a city in
    play with a space open in this step and not already theirs, priced as the engine prices it
    (``powergrid.quote_build`` for that one city)."""
    board = board_for(state["map"], tuple(sorted(state["areas"])))
    gmap = load_map(state["map"])
    player = next(p for p in state["players"] if p["seat"] == seat)
    to_network = board.to_network(player["cities"])
    step = state["step"]
    found: list[NextCity] = []
    for slug, occupants in state["cities"].items():
        if seat in occupants or len(occupants) >= min(step, len(BUILD_COSTS)):
            continue
        connection = to_network[board.index[slug]]
        if connection >= INF:
            continue
        space = BUILD_COSTS[len(occupants)]
        name = name_in(gmap.cities[slug], lang())
        found.append(
            {
                "slug": slug,
                "name": name,
                "space": space,
                "connection": connection,
                "total": space + connection,
            }
        )
    found.sort(key=lambda c: (c["total"], c["name"]))
    return found[:limit]


def board_in_words(state: State, names: dict[int, str], *, from_city: str = "") -> BoardWords:
    """The board of ``state`` in words, in the active language; ``from_city``: the city whose
    connections are asked for (ignored unless in play)."""
    reader = lang()
    gmap = load_map(state["map"])
    colours = {p["seat"]: p["colour"] for p in state["players"]}
    step = min(state["step"], len(BUILD_COSTS))
    in_play = state["cities"]
    regions: list[RegionWords] = []
    for area_slug in state["areas"]:
        area = gmap.areas[area_slug]
        cities: list[CityWords] = []
        for slug, city in gmap.cities.items():
            if city.area != area_slug or slug not in in_play:
                continue
            occupants = in_play[slug]
            cities.append(
                {
                    "slug": slug,
                    "name": name_in(city, reader),
                    "owners": [_owner(s, names, colours) for s in occupants],
                    "open_prices": list(BUILD_COSTS[len(occupants) : step]),
                }
            )
        cities.sort(key=lambda c: c["name"])
        regions.append({"slug": area_slug, "name": name_in(area, reader), "cities": cities})
    regions.sort(key=lambda r: r["name"])
    choices = sorted(((s, name_in(gmap.cities[s], reader)) for s in in_play), key=lambda c: c[1])
    connections: ConnectionsWords = {
        "city": "",
        "city_name": "",
        "neighbours": [],
        "choices": choices,
    }
    if from_city in in_play:
        neighbours: list[Neighbour] = [
            {
                "slug": c.other(from_city),
                "name": name_in(gmap.cities[c.other(from_city)], reader),
                "cost": c.cost,
            }
            for c in gmap.connections_of(from_city)
            if c.other(from_city) in in_play
        ]
        neighbours.sort(key=lambda n: (n["cost"], n["name"]))
        connections["city"] = from_city
        connections["city_name"] = name_in(gmap.cities[from_city], reader)
        connections["neighbours"] = neighbours
    builder = state["to_act"][0] if state["phase"] == "build" and state["to_act"] else None
    return {
        "regions": regions,
        "connections": connections,
        "builder": builder,
        "builder_name": names.get(builder, "?") if builder is not None else "",
        "next_cities": next_cities(state, builder) if builder is not None else [],
    }
