"""The board as inline SVG, drawn with the standard library from the engine's map data.

The static part (connections, cost labels, cities, names; areas not in play greyed out) depends only
on the map, the areas in play and the language, so it is cached; houses, selections and the
buildable marks are drawn per request on top of it.
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape

from powergrid.maps import GameMap, Named, load_map, name_in

from . import board_precomputed
from .board_layout import Label, bounds, cost_spots, place_labels, spread
from .markers import shape_svg

#: Fill of each area (the board's colour names); anything unknown is drawn neutral.
AREA_FILL = {
    "green": "#cfe8c4",
    "brown": "#e3cdb4",
    "yellow": "#f4e7a1",
    "red": "#f3c1bd",
    "cyan": "#bfe6ec",
    "blue": "#c5d3f2",
    "purple": "#dccbee",
}
AREA_STROKE = {
    "green": "#3d7a2a",
    "brown": "#7a5230",
    "yellow": "#8a7400",
    "red": "#a3302a",
    "cyan": "#237a87",
    "blue": "#2e4f9e",
    "purple": "#6a3f99",
}
CITY_R = 14
#: Cost circles' radius; cities closer than MIN_DIST are drawn apart so one fits between them.
COST_R = 7
MIN_DIST = 2 * CITY_R + 2 * COST_R + 6
#: Offsets of the three build spaces inside a city circle (10, 15, 20), and their size: 9 CSS px
#: where the board is drawn at its natural size (phones), big enough to tell the markers' shapes.
SLOTS = ((-4.9, -4.3), (4.9, -4.3), (0.0, 5.2))
SLOT = 9.0


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def city_name(city: Named, lang: str) -> str:
    return name_in(city, lang)


@lru_cache(maxsize=32)
def positions(slug: str) -> dict[str, tuple[float, float]]:
    """Where each city's disc is drawn: the map's coordinates, crowded cities pushed apart
    (stored in ``board_precomputed.json``; computed when the file lacks the map)."""
    stored = board_precomputed.positions(slug)
    return stored if stored is not None else compute_positions(slug)


def compute_positions(slug: str) -> dict[str, tuple[float, float]]:
    """The plain way to ``positions``."""
    gmap = load_map(slug)
    return spread({s: (c.x, c.y) for s, c in gmap.cities.items()}, min_dist=MIN_DIST)


@lru_cache(maxsize=32)
def name_labels(slug: str, lang: str) -> dict[str, Label]:
    """Where each city's name is drawn in a language (clear of other names, discs and costs;
    stored in ``board_precomputed.json``; computed when the file lacks the map)."""
    stored = board_precomputed.labels(slug, lang)
    return stored if stored is not None else compute_name_labels(slug, lang)


def compute_name_labels(slug: str, lang: str) -> dict[str, Label]:
    """The plain way to ``name_labels``."""
    gmap = load_map(slug)
    pos = compute_positions(slug)
    segs = [(pos[c.a], pos[c.b]) for c in gmap.connections]
    names = {s: city_name(c, lang) for s, c in gmap.cities.items()}
    return place_labels(pos, names, r=CITY_R, segments=segs, cost_r=COST_R)


@lru_cache(maxsize=64)
def _static(slug: str, areas: tuple[str, ...], lang: str, small: bool) -> tuple[str, str, str]:
    """(opening tag with the background and connections, cities, closing) for a board."""
    gmap: GameMap = load_map(slug)
    w, h = gmap.viewbox
    in_play = set(areas) if areas else set(gmap.areas)
    live = {s for s, c in gmap.cities.items() if c.area in in_play}
    out: list[str] = []
    label = escape(name_in(gmap, lang))
    cls = "board board-small" if small else "board"
    pos = positions(slug)
    names = name_labels(slug, lang) if not small else {}
    # Crop to the cities and their names (the map's drawing area has margins): a larger board.
    if pos:
        r = 9 if small else CITY_R
        boxes = [(x - r, y - r, x + r, y + r) for x, y in pos.values()]
        bx0, by0, bx1, by1 = bounds(boxes + [lab.box for lab in names.values()])
        x0, y0 = bx0 - 6, by0 - 6
        vw, vh = bx1 - bx0 + 12, by1 - by0 + 12
    else:
        x0, y0, vw, vh = 0.0, 0.0, float(w), float(h)
    # The big board also says its natural size: one user unit to one CSS pixel, the size at which
    # names are 11 px. Wide screens scale it to the column (site.css); phones scroll it instead.
    size = "" if small else f'width="{math.ceil(vw)}" height="{math.ceil(vh)}" '
    box = f"{_fmt(x0)} {_fmt(y0)} {_fmt(vw)} {_fmt(vh)}"
    out.append(
        f'<svg class="{cls}" viewBox="{box}" {size}role="img" '
        f'aria-labelledby="board-title-{slug}" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="board-title-{slug}">{label}</title>'
    )
    out.append('<g class="links">')
    labels: list[str] = []
    segs = [(pos[con.a], pos[con.b]) for con in gmap.connections]
    spots = cost_spots(segs, names.values(), city_r=CITY_R, cost_r=COST_R)
    for con, (mx, my) in zip(gmap.connections, spots, strict=True):
        (ax, ay), (bx, by) = pos[con.a], pos[con.b]
        off = " off" if (con.a not in live or con.b not in live) else ""
        out.append(
            f'<line class="link{off}" x1="{_fmt(ax)}" y1="{_fmt(ay)}" '
            f'x2="{_fmt(bx)}" y2="{_fmt(by)}"/>'
        )
        if not small:
            labels.append(
                f'<g class="cost{off}"><circle cx="{_fmt(mx)}" cy="{_fmt(my)}" r="{COST_R}"/>'
                f'<text x="{_fmt(mx)}" y="{_fmt(my + 3.2)}">{con.cost}</text></g>'
            )
    out.append("</g>")
    out.append('<g class="costs">' + "".join(labels) + "</g>")
    head = "".join(out)
    cities: list[str] = []
    for s, c in gmap.cities.items():
        fill = AREA_FILL.get(c.area, "#e6e6e6")
        stroke = AREA_STROKE.get(c.area, "#666")
        out_of_play = s not in live
        if out_of_play:
            fill, stroke = "#e4e4e4", "#a8a8a8"
        x, y = pos[s]
        cx, cy = _fmt(x), _fmt(y)
        name = escape(city_name(c, lang))
        r = 9 if small else CITY_R
        body = f'<circle class="disc" cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{stroke}"/>'
        if not small:
            for i, (dx, dy) in enumerate(SLOTS):
                body += (
                    f'<rect class="slot slot{i + 1}" x="{_fmt(x + dx - SLOT / 2)}" '
                    f'y="{_fmt(y + dy - SLOT / 2)}" width="{_fmt(SLOT)}" height="{_fmt(SLOT)}"/>'
                )
        # The houses and the selection ring (filled in at ``@@slug@@``) go under the name:
        # the ring drawn over it hid the first letter of a name beside its city.
        body += f"@@{s}@@"
        if not small:
            lab = names[s]
            body += (
                f'<text class="name" x="{_fmt(lab.x)}" y="{_fmt(lab.y)}" '
                f'text-anchor="{lab.anchor}">{name}</text>'
            )
        cities.append(
            f'<g class="city{" off" if out_of_play else ""}" data-city="{s}" data-area="{c.area}">'
            f"<title>{name}</title>{body}</g>"
        )
    return head, "".join(cities), "</svg>"


def render_board(
    *,
    map_slug: str,
    areas: list[str] | None,
    lang: str,
    occupancy: dict[str, list[int]] | None = None,
    colours: dict[int, str] | None = None,
    buildable: dict[str, int] | None = None,
    selected: set[str] | None = None,
    small: bool = False,
) -> str:
    """The board's SVG. ``occupancy`` maps city slugs to seats in build-space order; ``colours``
    maps seats to colour names; ``buildable`` marks the cities the viewer may pick now (with
    their cost alone); ``selected`` those already picked."""
    head, cities, tail = _static(map_slug, tuple(sorted(areas or ())), lang, small)
    occupancy = occupancy or {}
    colours = colours or {}
    buildable = buildable or {}
    selected = selected or set()
    pos = positions(map_slug)
    parts = cities.split("@@")
    # parts alternate: markup, slug, markup, slug, ... markup
    out = [head]
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(part)
            continue
        slug = part
        extra: list[str] = []
        seats = occupancy.get(slug) or []
        if seats and not small:
            x, y = pos[slug]
            for k, seat in enumerate(seats[:3]):
                dx, dy = SLOTS[k]
                extra.append(
                    shape_svg(colours.get(seat, ""), x + dx, y + dy, SLOT, f'data-seat="{seat}"')
                )
        if slug in buildable:
            x, y = pos[slug]
            on = slug in selected
            extra.append(
                f'<circle class="pick{" on" if on else ""}" cx="{_fmt(x)}" '
                f'cy="{_fmt(y)}" r="{CITY_R + 4}"/>'
            )
        out.append("".join(extra))
    out.append(tail)
    svg = "".join(out)
    if buildable:
        # Buildable cities become focusable toggles (the checkboxes stay the no-JS way to pick).
        # A picture (role img) hides what is in it and may hold nothing interactive: with
        # buttons in it the board is a group, named by its title as before (axe's
        # nested-interactive found the picture's buttons, unreachable by a screen reader).
        svg = svg.replace(' role="img" ', ' role="group" ', 1)
        for slug, cost in buildable.items():
            svg = svg.replace(
                f'<g class="city" data-city="{slug}"',
                f'<g class="city buildable{" selected" if slug in selected else ""}" '
                f'data-city="{slug}" data-cost="{cost}" tabindex="0" role="button" '
                f'aria-pressed="{"true" if slug in selected else "false"}"',
                1,
            )
    return svg
