"""City names on the SVG board stay readable: no two names overlap, and no name covers another
city's disc or a cost circle, on every map in English and Japanese (the Ruhr, the USA's north-east,
Emilia-Romagna).

The boxes are computed here from the SVG alone (position, text-anchor, a width from the character
count), independently of the layout code; tests/e2e checks the same with a browser's own widths.
"""

from __future__ import annotations

import math
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from games.web.board_layout import CROWDED, spread
from games.web.board_svg import CITY_R, MIN_DIST, positions, render_board
from powergrid.maps import available_maps, load_map

NS = {"s": "http://www.w3.org/2000/svg"}
FONT = 11.0


def _width(text: str) -> float:
    """Full-width characters one em, the rest 0.6 em: a character-count approximation."""
    return FONT * sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.6 for ch in text)


def _boxes(svg: str) -> tuple[dict, dict, list]:
    root = ET.fromstring(svg)
    names: dict[str, tuple[float, float, float, float]] = {}
    discs: dict[str, tuple[float, float, float]] = {}
    for g in root.iterfind(".//s:g[@data-city]", NS):
        slug = g.get("data-city")
        assert slug
        disc = g.find("s:circle[@class='disc']", NS)
        text = g.find("s:text[@class='name']", NS)
        assert disc is not None, slug
        assert text is not None, slug
        assert text.text, slug
        discs[slug] = (float(disc.get("cx", 0)), float(disc.get("cy", 0)), float(disc.get("r", 0)))
        x, y, w = float(text.get("x", 0)), float(text.get("y", 0)), _width(text.text)
        anchor = text.get("text-anchor", "start")
        x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        names[slug] = (x0, y - 0.8 * FONT, x0 + w, y + 0.2 * FONT)
    costs = [
        (float(c.get("cx", 0)), float(c.get("cy", 0)), float(c.get("r", 0)))
        for c in root.iterfind(".//s:g[@class='cost']/s:circle", NS)
    ]
    return names, discs, costs


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _circle_in_box(box, cx, cy, r) -> bool:
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return math.hypot(cx - nx, cy - ny) < r


def test_the_maps_tested_include_germany_and_usa():
    assert {"germany", "usa"} <= set(available_maps())


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", available_maps())
def test_city_names_do_not_overlap(slug, lang):
    svg = render_board(map_slug=slug, areas=None, lang=lang)
    names, discs, costs = _boxes(svg)
    gmap = load_map(slug)
    assert set(names) == set(gmap.cities)  # every city keeps data-city="<slug>" and its name
    clashes = [
        (a, b)
        for i, a in enumerate(sorted(names))
        for b in sorted(names)[i + 1 :]
        if _overlap(names[a], names[b])
    ]
    assert clashes == []
    on_discs = [
        (a, b) for a in names for b, d in discs.items() if a != b and _circle_in_box(names[a], *d)
    ]
    assert on_discs == []
    on_costs = [a for a in names for c in costs if _circle_in_box(names[a], *c)]
    assert on_costs == []
    # The view box holds every name.
    vx, vy, vw, vh = (float(v) for v in ET.fromstring(svg).get("viewBox", "").split())
    for box in names.values():
        assert vx <= box[0] <= box[2] <= vx + vw
        assert vy <= box[1] <= box[3] <= vy + vh


@pytest.mark.parametrize("slug", available_maps())
def test_discs_do_not_touch_and_far_cities_stay_put(slug):
    gmap = load_map(slug)
    pos = positions(slug)
    slugs = sorted(pos)
    for i, a in enumerate(slugs):
        for b in slugs[i + 1 :]:
            assert math.dist(pos[a], pos[b]) >= MIN_DIST - 0.5 > 2 * CITY_R
    lonely = [
        s
        for s, c in gmap.cities.items()
        if all(
            math.dist((c.x, c.y), (o.x, o.y)) > 3 * MIN_DIST
            for t, o in gmap.cities.items()
            if t != s
        )
    ]
    for s in lonely:
        assert pos[s] == (gmap.cities[s].x, gmap.cities[s].y)


def test_spread_moves_only_crowded_points():
    pos = spread({"a": (0.0, 0.0), "b": (10.0, 0.0), "c": (200.0, 0.0)}, min_dist=40.0)
    assert math.dist(pos["a"], pos["b"]) >= 39.9
    assert pos["c"] == (200.0, 0.0)


def test_spread_keeps_the_densest_places_farther_apart():
    """A 3 x 3 grid (each point with 7 or 8 others near) gets more room than a pair does; the
    Ruhr, dense but less so, keeps the plain distance."""
    grid = {f"{i}{j}": (30.0 * i, 30.0 * j) for i in range(3) for j in range(3)}
    pos = spread(grid, min_dist=40.0)
    keys = sorted(pos)
    closest = min(math.dist(pos[a], pos[b]) for i, a in enumerate(keys) for b in keys[i + 1 :])
    assert closest >= CROWDED * 40.0 - 0.1
    ruhr = positions("germany")
    assert math.dist(ruhr["essen"], ruhr["duisburg"]) < 1.1 * MIN_DIST


def test_ruhr_names_in_japanese_before_the_fix_would_clash():
    """The check above can fail: names under each disc (the old drawing) clash in the Ruhr."""
    names = {}
    for s in ("duisburg", "essen", "dortmund"):
        c = load_map("germany").cities[s]
        w = _width(c.name_ja)
        names[s] = (c.x - w / 2, c.y + CITY_R + 2, c.x + w / 2, c.y + CITY_R + 13)
    assert _overlap(names["duisburg"], names["essen"])


def test_a_board_with_cities_to_pick_is_a_group_of_buttons_not_a_picture():
    """A picture (role img) hides its content from a screen reader and may hold nothing
    interactive (axe's nested-interactive): the board the builder picks cities on is a group,
    still named by its title, whose buildable cities are buttons named by their city."""
    gmap = load_map("germany")
    areas = sorted({c.area for c in gmap.cities.values()})[:3]
    live = sorted(gmap.cities_in(areas))
    plain = ET.fromstring(render_board(map_slug="germany", areas=areas, lang="en"))
    assert plain.get("role") == "img"
    assert plain.find(".//s:g[@role='button']", NS) is None
    svg = render_board(map_slug="germany", areas=areas, lang="en", buildable={live[0]: 10})
    root = ET.fromstring(svg)
    assert root.get("role") == "group"
    assert root.get("aria-labelledby") == plain.get("aria-labelledby")
    (button,) = root.iterfind(".//s:g[@role='button']", NS)
    assert button.get("tabindex") == "0"
    title = button.find("s:title", NS)
    assert title is not None
    assert title.text == gmap.cities[live[0]].name_en
