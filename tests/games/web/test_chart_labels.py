"""The result charts' end labels (each seat's number at the end of its line): never on one
another when players finish close together, never outside the picture when a player leads
(they collided and the leader's was clipped at the top)."""

from __future__ import annotations

import itertools
import re
from types import SimpleNamespace as NS

import pytest

from games.results import Series
from games.web.charts import HEIGHT, LABEL_GAP, WIDTH, chart_svg

LABEL = re.compile(r'<text class="end-label[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)</text>')


@pytest.mark.parametrize(
    "ends",
    [[100, 100, 100], [100, 99, 98, 97, 96, 95], [0, 0, 1], [100, 1, 0], [50, 51, 0, 100]],
)
def test_end_labels_do_not_touch_and_stay_inside(ends):
    colours = ["red", "blue", "green", "yellow", "purple", "black"]
    seats = [NS(seat=i, colour=c) for i, c in enumerate(colours[: len(ends)])]
    series = Series("money", [1, 2, 3], {i: [10, 20, v] for i, v in enumerate(ends)})
    svg = chart_svg(series, seats, title="Money", round_label="Round")
    labels = [(float(x), float(y), n) for x, y, n in LABEL.findall(svg)]
    assert sorted(n for *_xy, n in labels) == [str(i + 1) for i in range(len(ends))]
    ys = sorted(y for _x, y, _n in labels)
    assert all(b - a >= LABEL_GAP - 0.05 for a, b in itertools.pairwise(ys)), ys
    # 11 px text: its top (baseline - 9) and its right end (two digits at most) inside.
    assert all(y - 9 >= 0 and y <= HEIGHT for y in ys), ys
    assert all(x + 14 <= WIDTH for x, _y, _n in labels)
