"""The games waiting for a player's move, nearest deadline first: ``GET /api/v1/games/next/``
and the pages' "Next game waiting (n)" link. A seat the server's bot plays (the player left, or
timed out) is not waiting for its player. The game page reads the same facts in its one read for
its reader (``games.web.reader``) and applies the same rule (``awaits``, ``nearest_first``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import selectors
from games.models import Game, Seat


@dataclass(frozen=True)
class Waiting:
    game_id: int
    deadline: datetime | None


def awaits(seat: int, to_act: list[int] | None, offered: str) -> bool:
    """Whether a seat its player holds (not one the bot plays) waits for their move."""
    return seat in (to_act or []) and offered != Seat.Offered.LEFT


def nearest_first(found: list[Waiting]) -> list[Waiting]:
    """Nearest deadline first; games without a deadline last, then by id."""
    return sorted(found, key=lambda w: (w.deadline is None, w.deadline or datetime.min, w.game_id))


def waiting_for(user: selectors.Reader) -> list[Waiting]:
    """The running games awaiting ``user``'s own move, nearest deadline first."""
    if not getattr(user, "is_authenticated", False):
        return []
    uid = int(getattr(user, "pk", 0) or 0)
    seats = Seat.objects.filter(
        user_id=uid, game__status=Game.Status.RUNNING, bot_controlled=False
    ).values_list("game_id", "seat", "deadline", "offered", "game__to_act")
    return nearest_first(
        [
            Waiting(gid, deadline)
            for gid, seat, deadline, offered, to_act in seats
            if awaits(seat, to_act, offered)
        ]
    )
