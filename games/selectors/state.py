"""A game's state as a reader may see it. ``game_state_for`` is THE door through which game
state leaves the server: pages, the API and emails build what they show from it (or from
``games.selectors.detail.game_detail_for``), never from ``Game.state_json``; the engine state
itself (``game_engine_state``, secrets included) is for the server's own use.
"""

from __future__ import annotations

from games import engine, shapes
from games.models import Game, Seat
from games.selectors.names import seat_name
from games.selectors.seats import Reader, game_deadline, game_seats, seat_of
from powergrid.state import State


def game_engine_state(game: Game) -> State:
    return engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )


def game_state_for(game: Game, user: Reader = None, *, state: State | None = None) -> shapes.State:
    """The state as ``user`` may see it: ``powergrid.view`` for the user's seat (spectator view for
    non-players, whose ``legal`` is empty, as it is for a player who resigned), with the players'
    names and the server's keys (``games.shapes.State``).

    ``state`` may pass the engine state when the caller already holds it (after a move).
    """
    if game.status == Game.Status.OPEN or not game.state_json:
        raise ValueError("The game has not started")
    if state is None:
        state = game_engine_state(game)
    seat = seat_of(game, user)
    seat_no = seat.seat if seat is not None else None
    view = engine.view(state, seat_no)
    if seat is not None and seat.offered == Seat.Offered.LEFT:
        view["legal"] = []  # resigned: the bot plays their seat, and no move is theirs
    seats = {s.seat: s for s in game_seats(game)}
    players: list[shapes.Player] = [
        {**p, "name": seat_name(seats[p["seat"]]), "username": seats[p["seat"]].user.get_username()}
        for p in view["players"]
    ]
    out: shapes.State = {
        **view,
        "players": players,
        "game": game.pk,
        "seq": game.seq,
        "seat": seat_no,
        "deadline": game_deadline(game),
    }
    return out
