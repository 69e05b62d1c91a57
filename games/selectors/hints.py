"""The engine's answers to a player's questions about their own seat: what building in some
cities would cost now, and the best plants to fire. One answer for the page and the API alike,
with the same refusals (the errors of ``games.services.errors``).
"""

from __future__ import annotations

from typing import TypedDict

import powergrid
from games import engine, shapes
from games.models import Game
from games.selectors.seats import Reader, seat_of
from games.selectors.state import game_engine_state
from games.services.errors import MoveRejected, NotAPlayer, ServiceError

#: The most cities one build quote prices (a build of more is no real question).
QUOTE_MAX_CITIES = 30


def game_build_quote(game: Game, user: Reader, cities: list[str]) -> shapes.BuildQuote:
    """What adding ``cities`` now would cost the user's seat (the engine's cheapest order), and
    their money left: the one quote the page and the API give, whoever asks and however they
    authenticate. Raises ``NotAPlayer`` (no seat), ``ServiceError`` ``game_not_running`` (the game
    is not under way), ``ServiceError`` ``invalid_field`` (more than ``QUOTE_MAX_CITIES``: the
    limit is here so that the page and the API refuse alike) or ``MoveRejected`` with the
    engine's code (a city that cannot be added)."""
    if len(cities) > QUOTE_MAX_CITIES:
        raise ServiceError(
            f"At most {QUOTE_MAX_CITIES} cities.",
            code="invalid_field",
            details={"field": "cities", "max": QUOTE_MAX_CITIES},
        )
    seat = seat_of(game, user)
    if seat is None:
        raise NotAPlayer()
    if game.status != Game.Status.RUNNING:
        raise ServiceError(
            "Only a game under way takes a build.", code="game_not_running", status=409
        )
    state = game_engine_state(game)
    try:
        cost = powergrid.quote_build(state, seat.seat, list(cities))
    except engine.IllegalAction as exc:
        raise MoveRejected(exc.message, code=exc.code, details=dict(exc.details or {})) from None
    money = state.players[seat.seat].money
    return {"cities": list(cities), "cost": cost, "money_left": money - cost}


class HybridBurn(TypedDict):
    coal: int
    oil: int


class BestPower(TypedDict):
    """The engine's best choice of plants to fire now: their ids, the coal and oil each hybrid
    burns, the cities they power."""

    plants: list[int]
    hybrid: dict[int, HybridBurn]
    cities: int


def game_best_power_for(game: Game, user: Reader) -> BestPower | None:
    """The user's best choice of plants to fire now (the engine's), or None."""
    seat = seat_of(game, user)
    if seat is None or game.status != Game.Status.RUNNING:
        return None
    state = game_engine_state(game)
    plants, cities, hybrid = powergrid.best_power(state, seat.seat)
    return {
        "plants": list(plants),
        "hybrid": {int(k): {"coal": v[0], "oil": v[1]} for k, v in hybrid.items()},
        "cities": cities,
    }
