"""A finished game's result: the score table and, per round, each player's money, cities and
plants (replayed from the move log), drawn as server-rendered SVG line charts.

Money is secret while a game runs; the result page exists only once the game is over, when the
engine reveals every player's money too. Nothing here runs for a game under way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.html import escape

from games import engine, selectors
from games.models import Game, Move, Seat


@dataclass(frozen=True)
class Series:
    """One chart: per seat, a value at the start of each round and at the end."""

    key: str  # money, cities, plants
    rounds: list[int]
    values: dict[int, list[int]]  # seat -> values


@dataclass(frozen=True)
class GameResult:
    rows: list[dict[str, Any]]  # rank, seat, name, colour, powered, money, cities
    charts: list[Series]


def game_result(game: Game) -> GameResult | None:
    """The result of a finished game (None for a game under way or open)."""
    if game.status != Game.Status.FINISHED or game.seed is None:
        return None
    seats = {s.seat: s for s in selectors.game_seats(game)}
    state = engine.new_game(
        map=game.map,
        players=len(seats),
        seed=game.seed,
        areas=_initial_areas(game),
        variant=game.variant,
        plant_deck=game.plant_deck,
    )
    rounds: list[int] = []
    money: dict[int, list[int]] = {s: [] for s in seats}
    cities: dict[int, list[int]] = {s: [] for s in seats}
    plants: dict[int, list[int]] = {s: [] for s in seats}

    def sample() -> None:
        rounds.append(state.round)
        for seat in seats:
            p = state.players[seat]
            money[seat].append(p.money)
            cities[seat].append(len(p.cities))
            plants[seat].append(len(p.plants))

    sample()
    for move in Move.objects.filter(game=game).order_by("seq").only("seat", "action"):
        before = state.round
        state = engine.apply(state, move.seat, move.action)
        if state.round != before:
            sample()
    # The final position (the engine's final scoring counts money after the last round).
    rounds.append(state.round + 1)
    for seat in seats:
        p = state.players[seat]
        money[seat].append(p.money)
        cities[seat].append(len(p.cities))
        plants[seat].append(len(p.plants))
    rows = []
    for seat, r in enumerate(state.result or ()):
        s = seats[seat]
        rows.append(
            {
                "rank": int(r[3]),
                "seat": seat,
                "name": selectors.seat_name(s),
                "colour": s.colour,
                "powered": int(r[0]),
                "money": int(r[1]),
                "cities": int(r[2]),
                "username": s.user.get_username(),
            }
        )
    rows.sort(key=lambda row: (row["rank"], row["seat"]))
    return GameResult(
        rows=rows,
        charts=[
            Series("money", rounds, money),
            Series("cities", rounds, cities),
            Series("plants", rounds, plants),
        ],
    )


def _initial_areas(game: Game) -> list[str] | None:
    return None if game.areas_random else game.areas


# -- SVG ------------------------------------------------------------------------------------------

WIDTH, HEIGHT = 520, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28


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
    for seat, vals in sorted(series.values.items()):
        points = " ".join(
            f"{LEFT + _scale(0, max(n - 1, 1), w, i):.1f},{TOP + h - _scale(lo, hi, h, v):.1f}"
            for i, v in enumerate(vals)
        )
        c = escape(colour.get(seat, "grey"))
        out.append(f'<polyline class="line c-{c}" points="{points}"/>')
        x_end = LEFT + _scale(0, max(n - 1, 1), w, len(vals) - 1)
        y_end = TOP + h - _scale(lo, hi, h, vals[-1])
        out.append(
            f'<text class="end-label c-{c}" x="{x_end - 4:.1f}" y="{y_end - 5:.1f}" '
            f'text-anchor="end">{seat + 1}</text>'
        )
    out.append("</svg>")
    return "".join(out)
