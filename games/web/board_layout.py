"""Where the board draws each city and its name: a small layout pass, pure Python, no Django.

Two steps, both deterministic and cached with the static board:

1. ``spread``: cities closer than ``min_dist`` (the Ruhr, the north-east of the USA) are pushed
   apart a little, so that discs do not touch and a cost circle fits between neighbours; in the
   densest places (Emilia-Romagna and the Veneto) a little more, so that the names fit too.
   Cities already far enough apart do not move.
2. ``place_labels``: each name gets one of many positions around its disc (below, right, left,
   above, slid along each side, the corners, then the same a little farther out), chosen to avoid
   other names, city discs and cost circles, and to cross few connection lines. The names with
   the fewest free positions are placed first; improvement passes then move any name whose
   position is still costly, and a last repair step moves a clashing name together with the
   names it pushes away (Emilia-Romagna on the Italy map needs that).

Text widths are estimated from the characters (bold, 11 px, as ``.board .name`` in site.css): a
few per cent wider than DejaVu Sans Bold, the widest of the fonts a browser picks (DejaVu/Segoe
UI/SF for Latin, Noto/Hiragino for Japanese, whose characters are one em).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: ``.board .name`` font size in site.css (SVG user units).
FONT = 11.0
#: The part of a line box that ink occupies, above and below the baseline: Latin capitals and
#: ascenders reach 0.76 em in DejaVu Sans, Japanese 0.84 em; accented capitals (É) reach higher.
ASCENT = 0.84 * FONT
ASCENT_ACCENTED = 0.95 * FONT
DESCENT = 0.24 * FONT
#: Space kept between a name and the disc it labels.
GAP = 2.5

Pt = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Segment = tuple[Pt, Pt]


#: Character classes and their widths (em), the widest of each class in DejaVu Sans Bold plus a
#: few per cent; anything else is taken as the widest letter of its case.
WIDTHS = (
    (" ", 0.37),
    (".,:;'’-()/", 0.48),
    ("ijl", 0.36),
    ("IJ!|", 0.39),
    ("ftr", 0.51),
    ("csz", 0.62),
    ("kvxy", 0.69),
    ("aeo", 0.71),
    ("bdghnpqu", 0.74),
    ("w", 0.96),
    ("m", 1.08),
    ("EFLT", 0.71),
    ("ABKPRSVXYZ", 0.80),
    ("CDGHNOQU", 0.88),
    ("M", 1.03),
    ("W", 1.14),
    ("0123456789", 0.72),
)


def char_width(ch: str) -> float:
    """Advance width of one character in em (bold): DejaVu Sans Bold's, rounded up by 3-5 %."""
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0
    base = unicodedata.normalize("NFD", ch)[0]
    for chars, width in WIDTHS:
        if base in chars:
            return width
    return 0.88 if base.isupper() else 0.74


def text_width(text: str, size: float = FONT) -> float:
    """The estimated width, and never less than 0.6 em a character: the plain character count
    that the tests (tests/games/web/test_board_labels.py) check the layout with."""
    count = sum(1.0 if unicodedata.east_asian_width(ch) in ("W", "F") else 0.6 for ch in text)
    return max(sum(char_width(ch) for ch in text), count) * size


def ascent(text: str) -> float:
    """How far the ink reaches above the baseline: higher over an accented capital."""
    accented = any(ch.isupper() and unicodedata.normalize("NFD", ch) != ch for ch in text)
    return ASCENT_ACCENTED if accented else ASCENT


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


def _box_dist(box: Box, p: Pt) -> float:
    nx = min(max(p[0], box[0]), box[2])
    ny = min(max(p[1], box[1]), box[3])
    return math.hypot(p[0] - nx, p[1] - ny)


def _grow(box: Box, margin: float) -> Box:
    return (box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin)


def _touch(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _segment_crosses(box: Box, a: Pt, b: Pt) -> bool:
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


#: In the densest places, a pair of points that both have more than CROWD others within twice
#: ``min_dist`` (Emilia-Romagna and the Veneto on the Italy map; the Ruhr and the USA's north-east
#: have at most 5 and 6) is kept CROWDED times ``min_dist`` apart: between so many lines and their
#: cost circles, the names need that room.
CROWD = 6
CROWDED = 1.25


def spread(
    points: Mapping[str, tuple[float, float]], *, min_dist: float, rounds: int = 60
) -> dict[str, tuple[float, float]]:
    """Push apart the points closer than ``min_dist`` (farther in the densest places, see CROWD;
    each pair moves half the shortfall, a few rounds); other points keep their place."""
    pos = {s: (float(x), float(y)) for s, (x, y) in points.items()}
    keys = sorted(pos)
    crowd = {
        s: sum(1 for t in keys if t != s and math.dist(pos[s], pos[t]) < 2 * min_dist) for s in keys
    }

    def want(a: str, b: str) -> float:
        return min_dist * (CROWDED if min(crowd[a], crowd[b]) > CROWD else 1.0)

    for _ in range(rounds):
        moved = False
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                (ax, ay), (bx, by) = pos[a], pos[b]
                dx, dy = bx - ax, by - ay
                d = math.hypot(dx, dy)
                goal = want(a, b)
                if d >= goal - 0.05:
                    continue
                if d < 1e-6:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (goal - d) / 2 + 0.05
                ux, uy = dx / d, dy / d
                pos[a] = (ax - ux * push, ay - uy * push)
                pos[b] = (bx + ux * push, by + uy * push)
                moved = True
        if not moved:
            break
    return pos


#: Preferred sides of a disc (angle in degrees, 90 is below) and their penalties.
SIDES = ((90.0, 0.0), (0.0, 2.0), (180.0, 3.0), (270.0, 4.0))
#: How far beyond GAP a name may stand from its disc, and what that costs: next to the disc
#: first, a little farther where the nearest spots are taken (no leader lines: farther out, a
#: name would no longer read as its city's).
RINGS = ((0.0, 0.0), (3.5, 10.0), (8.0, 24.0), (14.0, 45.0))
#: Where a name above or below its disc may sit across, as a fraction of half its width (0 is
#: centred, 1 starts or ends at the disc's centre), and where one to the right or left may sit up
#: or down, as a fraction of half its height; off-centre costs a little.
ACROSS = (0.0, -1 / 3, 1 / 3, -2 / 3, 2 / 3, -1.0, 1.0)
UPDOWN = (0.0, -1.0, 1.0)
#: Directions tried round each corner of a name (degrees below or above the horizontal).
CORNERS = (22.5, 45.0, 67.5)


def _side_pen(deg: float) -> float:
    """Preference for a name in direction ``deg`` of its disc: below, then right, left, above."""
    return min(p + abs((deg - a + 180.0) % 360.0 - 180.0) / 22.5 * 1.5 for a, p in SIDES)


def _candidates(x: float, y: float, r: float, w: float, asc: float) -> list[tuple[float, Label]]:
    """(preference penalty, label) for each position tried around a disc at (x, y).

    Each ring is the set of boxes whose nearest point is ``dist`` from the centre: a rounded
    rectangle traced by the box's centre, sampled along its four straight sides (the name slid
    across above/below, up/down beside) and its four rounded corners."""
    h = asc + DESCENT
    out: list[tuple[float, Label]] = []

    def add(pen: float, cx: float, cy: float, anchor: str) -> None:
        box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        tx = {"start": box[0], "end": box[2], "middle": cx}[anchor]
        out.append((pen, Label(tx, box[1] + asc, anchor, box)))

    for extra, base in RINGS:
        dist = r + GAP + extra
        for f in ACROSS:
            slide = abs(f) * 2.0
            add(base + _side_pen(90.0) + slide, x + f * w / 2, y + dist + h / 2, "middle")
            add(base + _side_pen(270.0) + slide, x + f * w / 2, y - dist - h / 2, "middle")
        for f in UPDOWN:
            slide = abs(f) * 1.0
            add(base + _side_pen(0.0) + slide, x + dist + w / 2, y + f * h / 2, "start")
            add(base + _side_pen(180.0) + slide, x - dist - w / 2, y + f * h / 2, "end")
        for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
            for a in CORNERS:
                ux, uy = math.cos(math.radians(a)), math.sin(math.radians(a))
                deg = math.degrees(math.atan2(sy * uy, sx * ux))
                cx = x + sx * (w / 2 + dist * ux)
                cy = y + sy * (h / 2 + dist * uy)
                add(base + _side_pen(deg), cx, cy, "start" if sx > 0 else "end")
    return out


#: Costs of a name's position. Hard: over another name (plus its area), over another disc (plus
#: its depth), leaving a line no spot for its cost circle. Soft: nearer another disc than its own
#: (it would read as that city's; plus how much nearer), crossing a line, pushing a cost circle
#: off the middle of its line.
OVER_NAME, OVER_NAME_AREA = 1000.0, 50.0
OVER_DISC, OVER_DISC_DEPTH = 800.0, 100.0
NO_COST_SPOT = 300.0
AMBIGUOUS, AMBIGUOUS_DEPTH = 40.0, 8.0
CROSSING = 8.0
OFF_MIDDLE = 2.0
#: Positions kept per name (the cheapest on their own), so that the search stays quick; and how
#: many of them the repair forces a clashing name to try.
KEEP = 48
TRIES = 24


def place_labels(
    cities: Mapping[str, Pt],
    names: Mapping[str, str],
    *,
    r: float,
    segments: Sequence[Segment] = (),
    cost_r: float = 0.0,
    passes: int = 6,
) -> dict[str, Label]:
    """A label for each city: ``cities`` are disc centres of radius ``r``; ``segments`` the
    connection lines (crossing one is a small cost). With ``cost_r``, each line carries a cost
    circle of that radius that may slide along it (see ``cost_spots``): names that together leave
    it no free spot cost more.

    The search is deterministic: the most constrained names first (fewest positions clear of
    discs and cost circles), each taking its cheapest position given those already placed; then
    passes in which each name moves to its cheapest position given all the others (a move never
    makes the total worse); then, while names still clash, a repair that forces a clashing name
    elsewhere and lets its neighbours answer, kept only when the total gets better."""
    search = _Search(cities, names, r=r, segments=segments, cost_r=cost_r)
    search.run(passes)
    return {s: search.cands[s][i] for s, i in sorted(search.chosen.items())}


class _Search:
    """The positions tried for each name and what each costs on its own (``fixed``); the state of
    the search: the position chosen for each name, and how many chosen names cover each spot of
    each line's cost circle."""

    def __init__(
        self,
        cities: Mapping[str, Pt],
        names: Mapping[str, str],
        *,
        r: float,
        segments: Sequence[Segment],
        cost_r: float,
    ) -> None:
        self.slugs = sorted(cities)
        pos = {s: (float(cities[s][0]), float(cities[s][1])) for s in self.slugs}
        self.spots = [_slide(a, b, city_r=r, cost_r=cost_r) if cost_r else [] for a, b in segments]
        self.full = [(1 << len(sp)) - 1 for sp in self.spots]
        self.cands: dict[str, list[Label]] = {}
        self.fixed: dict[str, list[float]] = {}
        self.covers: dict[str, list[tuple[tuple[int, int], ...]]] = {}
        #: Whether a position covers another disc, or alone leaves a line no cost spot.
        self.blocked: dict[str, list[bool]] = {}
        for s in self.slugs:
            self._positions(s, pos, names[s], r=r, segments=segments, cost_r=cost_r)
        reach = {s: bounds(lab.box for lab in self.cands[s]) for s in self.slugs}
        #: The names whose positions may meet each name's.
        self.near = {
            s: [t for t in self.slugs if t != s and _touch(reach[s], reach[t])] for s in self.slugs
        }
        self.chosen: dict[str, int] = {}
        self.covered = [[0] * len(sp) for sp in self.spots]

    def _positions(
        self,
        s: str,
        pos: Mapping[str, Pt],
        name: str,
        *,
        r: float,
        segments: Sequence[Segment],
        cost_r: float,
    ) -> None:
        """The KEEP cheapest positions for ``s``'s name, with their fixed costs, the cost spots
        each covers (line, bit mask of its spots) and whether it is blocked on its own."""
        x, y = pos[s]
        tried = _candidates(x, y, r, text_width(name), ascent(name))
        area = bounds(lab.box for _, lab in tried)
        # Discs near enough to be covered, or to be nearer a name than its own disc.
        far = _grow(area, r + GAP + RINGS[-1][0] + 4.0)
        discs = [pos[t] for t in self.slugs if t != s and _box_dist(far, pos[t]) == 0]
        reach = cost_r + 0.5
        lines = []
        for j, (a, b) in enumerate(segments):
            sb = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
            if _touch(_grow(area, reach + 1.0), sb):
                lines.append((j, a, b, _grow(sb, reach)))
        scored = []
        hit = r + 1.0
        for k, (pen, lab) in enumerate(tried):
            box = x0, y0, x1, y1 = lab.box
            c, blocked = pen, False
            own = _box_dist(box, (x, y))
            ambiguous = own + 4.0
            for px, py in discs:
                dx = x0 - px if px < x0 else (px - x1 if px > x1 else 0.0)
                dy = y0 - py if py < y0 else (py - y1 if py > y1 else 0.0)
                if dx >= ambiguous or dy >= ambiguous:
                    continue  # the usual case: far enough
                d = math.hypot(dx, dy)
                if d < hit:
                    c += OVER_DISC + OVER_DISC_DEPTH * (hit - d)
                    blocked = True
                elif d < ambiguous:
                    c += AMBIGUOUS + AMBIGUOUS_DEPTH * (ambiguous - d)
            cover = []
            for j, a, b, sb in lines:
                if sb[2] < x0 or sb[0] > x1 or sb[3] < y0 or sb[1] > y1:
                    continue  # most lines pass far away
                if _segment_crosses(box, a, b):
                    c += CROSSING
                m = 0
                for i, (px, py) in enumerate(self.spots[j]):
                    dx = x0 - px if px < x0 else (px - x1 if px > x1 else 0.0)
                    dy = y0 - py if py < y0 else (py - y1 if py > y1 else 0.0)
                    if dx * dx + dy * dy < reach * reach:
                        m |= 1 << i
                if m:
                    cover.append((j, m))
                    if m & 1:  # the first spot is the middle
                        c += OFF_MIDDLE
                    if m == self.full[j]:
                        blocked = True
            scored.append((c, pen, k, lab, tuple(cover), blocked))
        scored.sort(key=lambda t: t[:3])
        kept = scored[:KEEP]
        self.cands[s] = [t[3] for t in kept]
        self.fixed[s] = [t[0] for t in kept]
        self.covers[s] = [t[4] for t in kept]
        self.blocked[s] = [t[5] for t in kept]

    # The state. A name is "lifted" (out of ``chosen``) while its own moves are weighed.

    def _lift(self, s: str) -> int:
        i = self.chosen.pop(s)
        for j, m in self.covers[s][i]:
            for k, n in enumerate(self.covered[j]):
                if m >> k & 1:
                    self.covered[j][k] = n - 1
        return i

    def _put(self, s: str, i: int) -> None:
        self.chosen[s] = i
        for j, m in self.covers[s][i]:
            for k, n in enumerate(self.covered[j]):
                if m >> k & 1:
                    self.covered[j][k] = n + 1

    def _cost(self, s: str, i: int) -> float:
        """What putting the lifted ``s`` at position ``i`` adds to the total, the others staying
        where they are: its fixed cost, the names it covers, the lines it leaves no spot."""
        box = self.cands[s][i].box
        c = self.fixed[s][i]
        for t in self.near[s]:
            if t in self.chosen:
                ov = _overlap(box, self.cands[t][self.chosen[t]].box)
                if ov:
                    c += OVER_NAME + OVER_NAME_AREA * ov
        for j, m in self.covers[s][i]:
            taken = sum(1 << k for k, n in enumerate(self.covered[j]) if n)
            if taken != self.full[j] and taken | m == self.full[j]:
                c += NO_COST_SPOT
        return c

    def _best(self, s: str) -> int:
        """The cheapest position for the lifted ``s`` (the first of equals)."""
        return min(range(len(self.cands[s])), key=lambda i: (self._cost(s, i), i))

    def move(self, s: str, i: int) -> float:
        """Put ``s`` at position ``i``; returns how much the total changes."""
        was = self._lift(s)
        delta = self._cost(s, i) - self._cost(s, was)
        self._put(s, i)
        return delta

    def clashes(self, s: str) -> bool:
        """Whether ``s``'s name covers another name or disc, or leaves a line no cost spot."""
        i = self._lift(s)
        c = self._cost(s, i) - self.fixed[s][i]
        self._put(s, i)
        return c > 0 or self.blocked[s][i]

    def settle(self, group: Sequence[str], passes: int) -> float:
        """Passes in which each name of ``group`` moves to its cheapest position, until none
        moves; returns how much the total changed."""
        total = 0.0
        for _ in range(passes):
            changed = False
            for s in group:
                i = self._lift(s)
                b = self._best(s)
                self._put(s, i)
                if b != i:
                    total += self.move(s, b)
                    changed = True
            if not changed:
                break
        return total

    def run(self, passes: int) -> None:
        """Place every name: the most constrained first, then settle, then repair."""

        def free(s: str) -> int:
            return self.blocked[s].count(False)

        order = sorted(self.slugs, key=lambda s: (free(s), -len(self.near[s]), s))
        for s in order:
            self._put(s, self._best(s))
        self.settle(order, passes)
        for _ in range(passes):
            repaired = False
            for s in order:
                if self.clashes(s) and self._repair(s, passes):
                    repaired = True
            if not repaired:
                break
        self.settle(order, passes)

    def _repair(self, s: str, passes: int) -> bool:
        """Force the clashing ``s`` to each of its first TRIES positions in turn, letting its
        neighbours answer; keep the first that lowers the total."""
        group = [s, *self.near[s]]
        was = self.chosen[s]
        for i in range(min(TRIES, len(self.cands[s]))):
            if i == was or self.blocked[s][i]:
                continue
            saved = {t: self.chosen[t] for t in group}
            if self.move(s, i) + self.settle(self.near[s], passes) < -1e-9:
                return True
            for t in group:
                if self.chosen[t] != saved[t]:
                    self.move(t, saved[t])
        return False


#: A cost circle may slide along its line, away from the middle, in steps of SLIDE_STEP units, as
#: far as SLIDE_MAX of the line's length or until it would touch a disc.
SLIDE_STEP = 4.0
SLIDE_MAX = 0.18


def _along(a: Pt, b: Pt, t: float) -> Pt:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _slide(a: Pt, b: Pt, *, city_r: float, cost_r: float) -> list[Pt]:
    """Where a line's cost circle may sit, in order of preference: the middle (always), then
    alternately towards each end, nearest first; the last spot each way may be a short step, so
    that a circle can come right up to a disc."""
    d = math.dist(a, b)
    most = min(SLIDE_MAX * d, d / 2 - (city_r + cost_r + 1.0))
    offsets: list[float] = []
    k = 1
    while k * SLIDE_STEP <= most + 1e-9:
        offsets.append(k * SLIDE_STEP)
        k += 1
    if most > 0 and (not offsets or most - offsets[-1] > 1.0):
        offsets.append(most)
    out = [_along(a, b, 0.5)]
    for off in offsets:
        out += [_along(a, b, 0.5 - off / d), _along(a, b, 0.5 + off / d)]
    return out


def cost_spots(
    segments: Sequence[Segment],
    labels: Iterable[Label],
    *,
    city_r: float,
    cost_r: float,
) -> list[Pt]:
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
