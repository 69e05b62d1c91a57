"""Reads (selectors: queries that change nothing), one module for each thing read:

- ``seats``: a game and its seats, read once per request; the reader's seat; the deadline.
- ``names``: what players and seats are called, and which bot plays a seat.
- ``visibility``: who may see a game, THE rule for every channel.
- ``lists``: lists of games (the lobby's, a reader's, their invitations, the games awaiting them).
- ``detail``: a game as the API describes it (its options, seats, invitation link).
- ``state``: a game's state as a reader may see it, THE door through which state leaves the
  server (pages, the API and emails build what they show from it, never from
  ``Game.state_json``).
- ``history``: the move log replayed, the state after any move, a finished game's record.
- ``moves``: the move log as anyone may read it, sealed answers hidden until opened.
- ``hints``: a player's build quote and best choice of plants to fire.
- ``maps``: the maps and their rules.

The reads that the rest of the server asks everywhere are handed on here, so that
``from games import selectors`` and ``selectors.game_state_for(...)`` read as before; a read asked
in few places is imported from its own module (``from games.selectors.lists import game_list``).
"""

from __future__ import annotations

from games.selectors.history import (
    game_engine_state_at,
    game_history_state_for,
    game_initial_state,
    game_record,
)
from games.selectors.names import player_name, seat_name
from games.selectors.seats import Reader, game_get, game_get_with_seats, game_seats, seat_of
from games.selectors.state import game_engine_state, game_state_for
from games.selectors.visibility import game_for, is_private

__all__ = [
    "Reader",
    "game_engine_state",
    "game_engine_state_at",
    "game_for",
    "game_get",
    "game_get_with_seats",
    "game_history_state_for",
    "game_initial_state",
    "game_record",
    "game_seats",
    "game_state_for",
    "is_private",
    "player_name",
    "seat_name",
    "seat_of",
]
