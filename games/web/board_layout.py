"""Where the board draws each city and its name: a small layout pass, pure Python, no Django.

Two steps, both deterministic and cached with the static board:

1. ``spread``: cities closer than ``min_dist`` (the Ruhr, the north-east of the USA) are pushed
   apart a little, so that discs do not touch and a cost circle fits between neighbours. Cities
   already far enough apart do not move.
2. ``place_labels``: each name gets one of a few positions around its disc (below, right, left,
   above, the diagonals, then the same a little farther out), chosen to avoid other names, city
   discs and cost circles, and to cross few connection lines. Names in crowded places are placed
   first; a few improvement passes then move any name whose position is still costly.

Text widths are estimated from the characters (bold, 11 px, as ``.board .name`` in site.css);
the estimate errs on the wide side for the fonts a browser picks (DejaVu/Segoe UI/SF for Latin,
Noto/Hiragino for Japanese).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: ``.board .name`` font size in site.css (SVG user units).
FONT = 11.0
#: The part of a line box that ink occupies, above and below the baseline.
ASCENT = 0.92 * FONT
DESCENT = 0.26 * FONT
#: Space kept between a name and the disc it labels.
GAP = 2.5

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def char_width(ch: str) -> float:
    """Advance width of one character in em (bold), on the wide side."""
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0
    base = unicodedata.normalize("NFD", ch)[0]
    if base in " .,:;'’-()/":
        return 0.45
    if base in "iljI!|":
        return 0.38
    if base in "ftr":
        return 0.54
    if base in "mwMW":
        return 1.1
    if base.isupper() or base.isdigit():
        return 0.96
    return 0.78


def text_width(text: str, size: float = FONT) -> float:
    return sum(char_width(ch) for ch in text) * size


@dataclass(frozen=True)
class Label:
    """A name drawn at (x, y) (y is the baseline) with an SVG ``text-anchor``; ``box`` is the
    estimated ink box."""

    x: float
    y: float
    anchor: str
    box: Box


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _circle_hits(box: Box, cx: float, cy: float, r: float) -> float:
    """How far a circle reaches into a box (0 when apart)."""
    nx = min(max(cx, box[0]), box[2])
    ny = min(max(cy, box[1]), box[3])
    d = math.hypot(cx - nx, cy - ny)
    return max(0.0, r - d)


def _box_dist(box: Box, p: tuple[float, float]) -> float:
    nx = min(max(p[0], box[0]), box[2])
    ny = min(max(p[1], box[1]), box[3])
    return math.hypot(p[0] - nx, p[1] - ny)


def _segment_crosses(box: Box, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether segment a-b passes through the box (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def spread(
    points: Mapping[str, tuple[float, float]], *, min_dist: float, rounds: int = 60
) -> dict[str, tuple[float, float]]:
    """Push apart the points closer than ``min_dist`` (each pair moves half the shortfall, a few
    rounds); other points keep their place."""
    pos = {s: (float(x), float(y)) for s, (x, y) in points.items()}
    keys = sorted(pos)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                (ax, ay), (bx, by) = pos[a], pos[b]
                dx, dy = bx - ax, by - ay
                d = math.hypot(dx, dy)
                if d >= min_dist - 0.05:
                    continue
                if d < 1e-6:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (min_dist - d) / 2 + 0.05
                ux, uy = dx / d, dy / d
                pos[a] = (ax - ux * push, ay - uy * push)
                pos[b] = (bx + ux * push, by + uy * push)
                moved = True
        if not moved:
            break
    return pos


#: Preferred sides of a disc (angle in degrees, 90 is below) and their penalties.
SIDES = ((90.0, 0.0), (0.0, 2.0), (180.0, 3.0), (270.0, 4.0))
#: Angles tried around a disc: every 22.5 degrees.
ANGLES = tuple(i * 22.5 for i in range(16))


def _candidates(x: float, y: float, r: float, w: float) -> list[tuple[float, Label]]:
    """(preference penalty, label) for each position tried around a disc at (x, y): the box
    touches a circle around the disc at each angle, then the same a little farther out."""
    h = ASCENT + DESCENT
    out: list[tuple[float, Label]] = []
    for extra, base in ((0.0, 0.0), (7.0, 30.0)):
        dist = r + GAP + extra
        for deg in ANGLES:
            pen = min(p + abs((deg - a + 180.0) % 360.0 - 180.0) / 22.5 * 1.5 for a, p in SIDES)
            ux, uy = math.cos(math.radians(deg)), math.sin(math.radians(deg))
            px, py = x + ux * dist, y + uy * dist
            if ux > 0.3:
                anchor, x0 = "start", px
            elif ux < -0.3:
                anchor, x0 = "end", px - w
            else:
                anchor, x0 = "middle", px - w / 2
            if uy > 0.3:
                top = py
            elif uy < -0.3:
                top = py - h
            else:
                top = py - h / 2
            tx = {"start": x0, "end": x0 + w, "middle": x0 + w / 2}[anchor]
            out.append((base + pen, Label(tx, top + ASCENT, anchor, (x0, top, x0 + w, top + h))))
    return out


def place_labels(
    cities: Mapping[str, tuple[float, float]],
    names: Mapping[str, str],
    *,
    r: float,
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]] = (),
    cost_r: float = 0.0,
    passes: int = 4,
) -> dict[str, Label]:
    """A label for each city: ``cities`` are disc centres of radius ``r``; ``segments`` the
    connection lines (crossing one is a small cost). With ``cost_r``, each line carries a cost
    circle of that radius that may slide along it (see ``cost_spots``): a name that leaves it no
    free spot costs more."""
    slugs = sorted(cities)
    cands = {s: _candidates(cities[s][0], cities[s][1], r, text_width(names[s])) for s in slugs}

    def crowd(s: str) -> int:
        x, y = cities[s]
        return sum(1 for t in slugs if t != s and math.dist((x, y), cities[t]) < 110)

    order = sorted(slugs, key=lambda s: (-crowd(s), s))
    slides = [_slide(a, b, city_r=r, cost_r=cost_r) if cost_r else [] for a, b in segments]
    seg_boxes = [
        (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])) for a, b in segments
    ]

    def near(box: Box, other: Box, margin: float) -> bool:
        return (
            other[0] - margin < box[2]
            and box[0] < other[2] + margin
            and other[1] - margin < box[3]
            and box[1] < other[3] + margin
        )

    def fixed_cost(s: str, box: Box) -> float:
        """What a position costs whatever the other names do: discs, costs, lines, ambiguity."""
        c = 0.0
        own = _box_dist(box, cities[s])
        for t in slugs:
            x, y = cities[t]
            if not near(box, (x, y, x, y), r + own + 4.0):
                continue
            hit = _circle_hits(box, x, y, r + 1.0)
            if hit:
                c += 800.0 + 100.0 * hit
            # A name nearer another disc than its own reads as that city's.
            if t != s and _box_dist(box, (x, y)) < own + 4.0:
                c += 200.0
        for (a, b), sbox, spots in zip(segments, seg_boxes, slides, strict=True):
            if not near(box, sbox, cost_r + 1.0):
                continue
            if _segment_crosses(box, a, b):
                c += 8.0
            if spots and not any(_circle_hits(box, p[0], p[1], cost_r + 0.5) == 0 for p in spots):
                c += 300.0
        return c

    fixed = {s: [pen + fixed_cost(s, lab.box) for pen, lab in cands[s]] for s in slugs}
    chosen: dict[str, Label] = {}

    def cost(s: str, i: int) -> float:
        box = cands[s][i][1].box
        c = fixed[s][i]
        for t, other in chosen.items():
            ov = _overlap(box, other.box) if t != s else 0.0
            if ov:
                c += 1000.0 + 50.0 * ov
        return c

    def best(s: str) -> Label:
        i = min(range(len(cands[s])), key=lambda i: (cost(s, i), cands[s][i][0]))
        return cands[s][i][1]

    for s in order:
        chosen[s] = best(s)
    for _ in range(passes):
        changed = False
        for s in order:
            lab = best(s)
            if lab != chosen[s]:
                chosen[s] = lab
                changed = True
        if not changed:
            break
    return chosen


#: Where a cost circle may sit along its line, in order of preference (0.5 is the middle).
SLIDE = (0.5, 0.42, 0.58, 0.34, 0.66)


def _along(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _slide(
    a: tuple[float, float], b: tuple[float, float], *, city_r: float, cost_r: float
) -> list[tuple[float, float]]:
    """The spots of SLIDE where a cost circle stays clear of both discs (the middle always)."""
    d = math.dist(a, b)
    room = (city_r + cost_r + 1.0) / d if d else 0.5
    return [_along(a, b, t) for t in SLIDE if t == 0.5 or room <= t <= 1 - room]


def cost_spots(
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
    labels: Iterable[Label],
    *,
    city_r: float,
    cost_r: float,
) -> list[tuple[float, float]]:
    """The centre of each line's cost circle: the middle, else the first spot along the line clear
    of every name (the middle when none is)."""
    boxes = [lab.box for lab in labels]
    out = []
    for a, b in segments:
        spot = _along(a, b, 0.5)
        for p in _slide(a, b, city_r=city_r, cost_r=cost_r):
            if all(_circle_hits(box, p[0], p[1], cost_r + 0.5) == 0 for box in boxes):
                spot = p
                break
        out.append(spot)
    return out


def bounds(boxes: Iterable[Box]) -> Box:
    bs = list(boxes)
    return (
        min(b[0] for b in bs),
        min(b[1] for b in bs),
        max(b[2] for b in bs),
        max(b[3] for b in bs),
    )
