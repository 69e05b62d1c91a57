"""The result page's charts (money, cities and plants over the rounds, ``games.results``) as
plain SVG: one line per seat in its colour, ending in the seat's marker (``games.web.markers``),
so lines that cross stay told apart without colour vision."""

from __future__ import annotations

from django.utils.html import escape

from games.models import Seat
from games.results import Series
from games.web.markers import shape_svg

WIDTH, HEIGHT = 520, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 30, 12, 28
#: The vertical room of one end label (the chart's text is 11 px): labels are spread this far apart.
LABEL_GAP = 12


def _scale(lo: int, hi: int, size: int, value: float) -> float:
    return size * (value - lo) / (hi - lo) if hi != lo else size / 2


def chart_svg(
    series: Series, seats: list[Seat], *, title: str, round_label: str, end_label: str = "end"
) -> str:
    """A line chart of ``series``: one line per seat in its colour, with a marker shape per seat
    (colour-blind safe), axes labelled with rounds and values. Plain SVG, no script.

    >>> from types import SimpleNamespace as NS
    >>> svg = chart_svg(Series("money", [1, 2], {0: [50, 60]}), [NS(seat=0, colour="red")],
    ...                 title="Money", round_label="Round")
    >>> svg.startswith("<svg") and 'class="line c-red"' in svg and "<title>Money</title>" in svg
    True
    """
    xs = series.rounds
    values = [v for seat in series.values.values() for v in seat]
    lo, hi = 0, max([*values, 1])
    w, h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = len(xs)
    colour = {s.seat: s.colour for s in seats}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="chart" role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + h}" x2="{LEFT + w}" y2="{TOP + h}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + h}"/>',
    ]
    for tick in sorted({lo, hi // 2, hi}):
        y = TOP + h - _scale(lo, hi, h, tick)
        out.append(
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>'
        )
        out.append(f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + w}" y2="{y:.1f}"/>')
    step = max(1, n // 10)
    for i in range(0, n, step):
        x = LEFT + _scale(0, max(n - 1, 1), w, i)
        label = str(xs[i]) if i < n - 1 else end_label
        out.append(
            f'<text class="tick" x="{x:.1f}" y="{TOP + h + 16}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )
    out.append(
        f'<text class="tick" x="{LEFT + w}" y="{HEIGHT - 2}" text-anchor="end">'
        f"{escape(round_label)}</text>"
    )
    ends: list[tuple[float, int, float, str]] = []
    for seat, vals in sorted(series.values.items()):
        points = " ".join(
            f"{LEFT + _scale(0, max(n - 1, 1), w, i):.1f},{TOP + h - _scale(lo, hi, h, v):.1f}"
            for i, v in enumerate(vals)
        )
        c = escape(colour.get(seat, "grey"))
        out.append(f'<polyline class="line c-{c}" points="{points}"/>')
        x_end = LEFT + _scale(0, max(n - 1, 1), w, len(vals) - 1)
        y_end = TOP + h - _scale(lo, hi, h, vals[-1])
        # The seat's marker ends its line: lines that cross stay told apart by shape too.
        out.append(shape_svg(colour.get(seat, ""), x_end, y_end, 9))
        ends.append((y_end, seat, x_end, c))
    # The seats' numbers right of the lines' ends, in the lines' order from the top, spread so
    # that no two touch and none leaves the picture (close finishes drew them on one another,
    # a leader's above the top edge).
    baselines = spread([y + 4 for y, *_ in sorted(ends)], TOP + 8, TOP + h + 4, LABEL_GAP)
    for (_y, label_seat, label_x, label_c), base in zip(sorted(ends), baselines, strict=True):
        out.append(
            f'<text class="end-label c-{label_c}" x="{label_x + 8:.1f}" y="{base:.1f}" '
            f'text-anchor="start">{label_seat + 1}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def spread(wanted: list[float], lo: float, hi: float, gap: float) -> list[float]:
    """Positions as near ``wanted`` (ascending) as can be with ``gap`` between neighbours, all
    within [``lo``, ``hi``] (when they fit there).

    >>> spread([50, 52, 53], 0, 200, 12)
    [50, 62, 74]
    >>> spread([5, 195, 199], 10, 200, 12)
    [10, 188, 200]
    """
    out: list[float] = []
    for y in wanted:
        out.append(max(y, lo, out[-1] + gap if out else lo))
    # Pushed past the bottom: move up from the last, keeping the gaps.
    limit = hi
    for i in range(len(out) - 1, -1, -1):
        out[i] = min(out[i], limit)
        limit = out[i] - gap
    return [round(y, 1) for y in out]
