"""What happens after a game's state changes: the hook the notifications/deadlines work fills in.

``on_state_changed`` is called by every service that changes a game's state (``game_start``,
``move_submit``, ``move_apply_system``) INSIDE the transaction that changed it, with the game row
locked (``select_for_update``) and already saved with its new ``seq``, ``to_act``, ``status``.

It is the place to:
  * set each awaited seat's ``Seat.deadline`` (and clear it for seats no longer awaited),
  * write outbox rows (``games.models.Notification``) for the players concerned,
  * schedule sending with ``transaction.on_commit(lambda: send_task.delay(...))`` - never send
    directly, so nothing leaves when the transaction rolls back.

Arguments:
  game       the locked, saved ``Game``
  old_state  the engine state before (``None`` when the game has just started)
  new_state  the engine state after
  moves      the ``Move`` rows appended by this change (empty at start)
"""

from __future__ import annotations

from typing import Any

from .models import Game, Move


def on_state_changed(*, game: Game, old_state: Any, new_state: Any, moves: list[Move]) -> None:
    """No-op until the notifications/deadlines work lands."""
    return None
