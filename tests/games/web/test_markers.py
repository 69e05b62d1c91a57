"""Seat markers: every seat colour has a shape no other colour has, the board draws each house in
its seat's shape, and the players' list beside the board shows the same marker as its legend."""

from __future__ import annotations

import re

from games.results import Series
from games.web.board_svg import render_board
from games.web.charts import chart_svg
from games.web.markers import SHAPES, marker_icon, shape_svg
from powergrid.tables import COLOURS


def test_every_seat_colour_has_a_shape_of_its_own():
    assert set(SHAPES) == set(COLOURS)
    assert len(set(SHAPES.values())) == len(COLOURS)


def test_each_shape_is_drawn_differently():
    outlines = {re.search(r' d="([^"]+)"', shape_svg(c, 0, 0, 10)).group(1) for c in COLOURS}
    assert len(outlines) == len(COLOURS)


def test_the_board_draws_each_house_in_its_seats_shape():
    svg = render_board(
        map_slug="germany",
        areas=None,
        lang="en",
        occupancy={"berlin": [0, 2], "kiel": [1]},
        colours={0: "red", 1: "green", 2: "black"},
    )
    houses = re.findall(r'<path class="mark c-(\w+)" data-shape="([\w-]+)" data-seat="(\d)"', svg)
    assert sorted(houses) == [
        ("black", "cross", "2"),
        ("green", "triangle", "1"),
        ("red", "circle", "0"),
    ]


def test_a_colour_without_a_shape_is_drawn_neutral_and_escaped():
    out = shape_svg('"><script>', 0, 0, 9)
    assert 'class="mark c-none"' in out
    assert 'data-shape="circle"' in out
    assert "<script>" not in out


def test_the_legend_marker_names_its_colour_for_screen_readers_or_hides():
    assert 'role="img" aria-label="rot &lt;b&gt;"' in marker_icon("red", "rot <b>")
    assert 'aria-hidden="true"' in marker_icon("red")
    assert 'data-shape="circle"' in marker_icon("red")


def test_the_game_page_lists_players_with_their_markers(started_game, client_for):
    game, users = started_game(3)
    page = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    seats = re.findall(
        r'data-seat="(\d)">\s*<div class="p-head"><svg class="marker"[^>]*>'
        r'<path class="mark c-(\w+)" data-shape="([\w-]+)"',
        page,
    )
    colours = {s.seat: s.colour for s in game.seats.all()}
    assert sorted(seats) == sorted((str(k), c, SHAPES[c]) for k, c in colours.items())
    assert 'class="board-scroll"' in page
    assert 'class="board-zoom small" hidden' in page


def test_result_chart_lines_end_in_the_seats_marker():
    seats = [
        type("S", (), {"seat": 0, "colour": "blue"}),
        type("S", (), {"seat": 1, "colour": "yellow"}),
    ]
    svg = chart_svg(
        Series("money", [1, 2], {0: [50, 60], 1: [40, 70]}),
        seats,
        title="Money",
        round_label="Round",
    )
    assert 'data-shape="square"' in svg
    assert 'data-shape="diamond"' in svg
