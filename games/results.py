"""A finished game's result: the score table and, per round, each player's money, cities and
plants (replayed from the move log), drawn as server-rendered SVG line charts.

Money is secret while a game runs; the result page exists only once the game is over, when the
engine reveals every player's money too. Nothing here runs for a game under way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict, cast

from django.contrib.auth import get_user_model

from games import engine, selectors, shapes, tenures
from games.models import Game, Seat
from games.selectors.history import game_log
from powergrid.shapes import Colour


@dataclass(frozen=True)
class Series:
    """One chart: per seat, a value at the start of each round and at the end."""

    key: str  # money, cities, plants
    rounds: list[int]
    values: dict[int, list[int]]  # seat -> values


@dataclass(frozen=True)
class GameResult:
    rows: list[shapes.GameResultRow]
    charts: list[Series]


def game_result(game: Game) -> GameResult | None:
    """The result of a finished game (None for a game under way or open)."""
    if game.status != Game.Status.FINISHED or game.seed is None:
        return None
    seats = {s.seat: s for s in selectors.game_seats(game)}
    state = selectors.game_initial_state(game, players=len(seats))
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
    log = game_log(game)
    # Shown with the scores: each player's take-backs (alone, and agreed by the others).
    took: dict[int, list[int]] = {s: [0, 0] for s in seats}
    for _seq, seat, action in log:
        if engine.is_takeback(action) and seat in took:
            took[seat][1 if action.get("accepted_by") else 0] += 1
    # The moves that stand (a take-back's cancelled moves never happened for the result).
    for _seq, seat, action in engine.standing(log):
        before = state.round
        state = engine.apply(state, seat, dict(action))
        if state.round != before:
            sample()
    # The final position (the engine's final scoring counts money after the last round).
    rounds.append(state.round + 1)
    for seat in seats:
        p = state.players[seat]
        money[seat].append(p.money)
        cities[seat].append(len(p.cities))
        plants[seat].append(len(p.plants))
    rows: list[shapes.GameResultRow] = []
    for seat, r in enumerate(state.result or ()):
        s = seats[seat]
        rows.append(
            {
                "rank": int(r[3]),
                "seat": seat,
                "name": selectors.seat_name(s),
                "colour": cast(Colour, s.colour),
                "powered": int(r[0]),
                "money": int(r[1]),
                "cities": int(r[2]),
                "username": s.user.get_username(),
                "takebacks_alone": took[seat][0],
                "takebacks_agreed": took[seat][1],
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


def game_result_json(game: Game, result: GameResult) -> shapes.GameResult:
    """The result as the API gives it (``GET /api/v1/games/{id}/result/``): the score table and,
    per round, each seat's money, cities and plants: the figures the result page charts."""
    by_key = {s.key: s for s in result.charts}
    money, cities, plants = by_key["money"], by_key["cities"], by_key["plants"]
    last = len(money.rounds) - 1
    rounds: list[shapes.RoundFigures] = [
        {
            "round": number,
            "end": i == last,
            "seats": [
                {
                    "seat": seat,
                    "money": money.values[seat][i],
                    "cities": cities.values[seat][i],
                    "plants": plants.values[seat][i],
                }
                for seat in sorted(money.values)
            ],
        }
        for i, number in enumerate(money.rounds)
    ]
    return {"game": game.pk, "rows": result.rows, "rounds": rounds}


class Holder(TypedDict):
    """A holder of a seat who did not play it to the end (the result page names them)."""

    name: str
    username: str
    ended: str  # Tenure.Ended: resigned, timed_out, replaced
    seq: int  # the game's move count when they stopped
    last: bool  # the seat's last holder: nobody took the seat after them (the bot played on)


def who_stopped(game: Game, seats: list[Seat]) -> dict[int, list[Holder]]:
    """By seat, each holder whose tenure ended before the game did, in order: those a
    substitute followed, and a last holder who resigned (the bot played their seat to the end).
    Two queries: the tenures, their users."""
    ended = [t for t in tenures.of_game(game, seats) if t.ended]
    users = get_user_model().objects.select_related("profile")
    by_id = {u.pk: u for u in users.filter(pk__in={t.user_id for t in ended})}
    holder_of = {s.seat: s.user_id for s in seats}
    out: dict[int, list[Holder]] = {}
    for t in ended:
        user = by_id[t.user_id]
        out.setdefault(t.seat, []).append(
            {
                "name": selectors.seat_name(Seat(game=game, seat=t.seat, user=user)),
                "username": user.get_username(),
                "ended": t.ended,
                "seq": t.to_seq or 0,
                "last": holder_of.get(t.seat) == t.user_id,
            }
        )
    return out
