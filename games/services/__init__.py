"""Writes. HackSoft style: ``<thing>_<verb>``, keyword-only arguments; see moves.py's docstring."""

from .errors import (
    AlreadyJoined,
    GameAlreadyStarted,
    GameFull,
    GameNotFound,
    GameNotStarted,
    InvalidSetup,
    MoveRejected,
    NotAPlayer,
    NotCreator,
    NotEnoughPlayers,
    ServiceError,
    StaleState,
)
from .lobby import (
    game_bot_add,
    game_create,
    game_invite,
    game_join,
    game_leave,
    game_seat_remove,
    game_start,
    options_clean,
)
from .moves import MoveResult, move_apply_system, move_submit

__all__ = [
    "AlreadyJoined",
    "GameAlreadyStarted",
    "GameFull",
    "GameNotFound",
    "GameNotStarted",
    "InvalidSetup",
    "MoveRejected",
    "MoveResult",
    "NotAPlayer",
    "NotCreator",
    "NotEnoughPlayers",
    "ServiceError",
    "StaleState",
    "game_bot_add",
    "game_create",
    "game_invite",
    "game_join",
    "game_leave",
    "game_seat_remove",
    "game_start",
    "move_apply_system",
    "move_submit",
    "options_clean",
]
