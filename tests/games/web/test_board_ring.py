"""The selection ring around a city one may build in is drawn under the city's name (SVG paints
in document order), so the name's white halo keeps its first letter readable: drawn over it, the
ring hid the first letter of a name beside its city. Houses too stay under the names."""

from __future__ import annotations

import re

import pytest

from games.web.board_svg import render_board
from powergrid.maps import load_map


@pytest.mark.parametrize("slug", ["germany", "usa", "italy", "france"])
def test_rings_and_houses_are_under_every_name(slug):
    cities = list(load_map(slug).cities)
    svg = render_board(
        map_slug=slug,
        areas=None,
        lang="en",
        occupancy={c: [0] for c in cities[:5]},
        colours={0: "red"},
        buildable=dict.fromkeys(cities, 10),
        selected=set(cities[:3]),
    )
    groups = re.findall(r'<g class="city[^"]*" data-city="([^"]+)".*?</g>', svg, re.S)
    assert len(groups) == len(cities)
    for city in cities:
        body = svg.split(f'data-city="{city}"', 1)[1].split("</g>", 1)[0]
        name_at = body.index('<text class="name"')
        assert body.index('class="pick') < name_at, city
        if city in cities[:5]:
            assert body.index('data-seat="0"') < name_at, city
