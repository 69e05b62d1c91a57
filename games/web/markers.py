"""Each seat colour's marker: a colour *and* a shape.

Houses on the board and the dots beside players' names are drawn by this module, so a player who
cannot tell red from green still tells a circle from a triangle, and the list of players is the
legend of the board. The colour itself comes from the stylesheet (``.mark.c-red`` and so on,
``static/css/site.css``), the one place that says which red.

>>> SHAPES["red"], SHAPES["green"]
('circle', 'triangle')
>>> shape_svg("blue", 0, 0, 10)
'<path class="mark c-blue" data-shape="square" d="M-4.5 -4.5H4.5V4.5H-4.5Z"/>'
"""

from __future__ import annotations

from html import escape

#: The shape of each seat colour's houses; no two colours share one.
SHAPES = {
    "red": "circle",
    "blue": "square",
    "green": "triangle",
    "yellow": "diamond",
    "purple": "triangle-down",
    "black": "cross",
}


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _poly(x: float, y: float, points: list[tuple[float, float]]) -> str:
    first, *rest = points
    d = f"M{_f(x + first[0])} {_f(y + first[1])}"
    for px, py in rest:
        d += f"L{_f(x + px)} {_f(y + py)}"
    return d + "Z"


def _path(shape: str, x: float, y: float, s: float) -> str:
    """The outline of ``shape`` centred on (x, y) in a box ``s`` wide, as a path's ``d``.

    The sizes are balanced by eye: a square as wide as a circle looks bigger, so it is drawn a
    little smaller, and the pointed shapes a little larger.
    """
    h = s / 2
    if shape == "square":
        a = 0.9 * h
        return f"M{_f(x - a)} {_f(y - a)}H{_f(x + a)}V{_f(y + a)}H{_f(x - a)}Z"
    if shape == "triangle":
        return _poly(x, y, [(0, -1.1 * h), (1.05 * h, 0.85 * h), (-1.05 * h, 0.85 * h)])
    if shape == "triangle-down":
        return _poly(x, y, [(-1.05 * h, -0.85 * h), (1.05 * h, -0.85 * h), (0, 1.1 * h)])
    if shape == "diamond":
        a = 1.12 * h
        return _poly(x, y, [(0, -a), (a, 0), (0, a), (-a, 0)])
    if shape == "cross":
        a, t = 1.0 * h, 0.36 * h
        pts = [(-t, -a), (t, -a), (t, -t), (a, -t), (a, t), (t, t), (t, a), (-t, a)]
        return _poly(x, y, [*pts, (-t, t), (-a, t), (-a, -t), (-t, -t)])
    # circle (and any colour without a shape of its own), as two arcs
    r = _f(0.95 * h)
    return (
        f"M{_f(x - 0.95 * h)} {_f(y)}a{r} {r} 0 1 0 {_f(1.9 * h)} 0a{r} {r} 0 1 0 {_f(-1.9 * h)} 0Z"
    )


def shape_svg(colour: str, x: float, y: float, size: float, extra: str = "") -> str:
    """One marker as an SVG ``<path>``, centred on (x, y), ``size`` user units across.

    ``extra`` is further attributes, already escaped (``data-seat="2"``).
    """
    shape = SHAPES.get(colour, "circle")
    cls = escape(colour if colour in SHAPES else "none")
    more = f" {extra}" if extra else ""
    return f'<path class="mark c-{cls}" data-shape="{shape}"{more} d="{_path(shape, x, y, size)}"/>'


def marker_icon(colour: str, label: str = "") -> str:
    """A stand-alone marker for text (the players' list), labelled for screen readers if
    ``label`` is given and hidden from them otherwise.

    >>> marker_icon("green", "green")  # doctest: +ELLIPSIS
    '<svg class="marker" ... role="img" aria-label="green"><path class="mark c-green" ...'
    """
    a11y = f'role="img" aria-label="{escape(label)}"' if label else 'aria-hidden="true"'
    return (
        f'<svg class="marker" viewBox="-6 -6 12 12" width="16" height="16" {a11y}>'
        f"{shape_svg(colour, 0, 0, 10.5)}</svg>"
    )
