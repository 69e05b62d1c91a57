"""Writing the outbox: ``Notification`` rows created inside the transaction that caused them.

Each row has a ``dedupe_key`` (unique). Rows are inserted with ``ON CONFLICT DO NOTHING``, so:
  * a turn notice is ``turn:<game>:<user>`` while it is pending: however many moves other players
    make before it is sent, the player gets ONE email for that game; the key is released when the
    row is claimed for sending (``games.notifications.sending``), so the next turn gets a new row;
  * the other kinds are keyed by what caused them (game, move seq, deadline), so writing them twice
    (a retried transaction, a re-run of a periodic job) leaves one row.

Which rows are written depends on the recipient's ``Profile.notification_mode``: ``every_turn``
gets every kind; ``digest`` gets only the daily digest (``games.notifications.digest``), which
lists the same events; ``none`` gets nothing.

Nothing is sent from here: ``schedule_send`` registers a ``transaction.on_commit`` callback that
queues the Celery task, so a rolled-back move sends nothing and a broker that is down only delays
the emails until the outbox sweep picks them up.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games import rows as sql_rows
from games.models import Game, Notification, Seat

log = logging.getLogger(__name__)

Kind = Notification.Kind


def _mode(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "notification_mode", "every_turn") or "every_turn"


def wants_email(user: Any, kind: str) -> bool:
    """Whether ``user`` gets an individual email of ``kind`` (digest users get the digest only)."""
    if not getattr(user, "email", ""):
        return False
    mode = _mode(user)
    if kind == Kind.DIGEST:
        return mode == "digest"
    return mode == "every_turn"


def turn_key(game_id: int, user_id: int) -> str:
    return f"turn:{game_id}:{user_id}"


@dataclass
class OutboxWriter:
    """Collects rows for one game change, then writes them in one statement."""

    game: Game
    rows: list[Notification] = field(default_factory=list)

    def add(self, *, user: Any, kind: str, key: str, payload: dict[str, Any] | None = None) -> None:
        if not wants_email(user, kind):
            return
        self.rows.append(
            Notification(
                recipient=user,
                game=self.game,
                kind=kind,
                payload=payload or {},
                dedupe_key=key,
            )
        )

    # -- the kinds ------------------------------------------------------------------------------

    def turn(self, seat: Seat, *, seq: int) -> None:
        self.add(
            user=seat.user,
            kind=Kind.TURN,
            key=turn_key(self.game.pk, seat.user_id),
            payload={"seat": seat.seat, "seq": seq},
        )

    def game_started(self, seats: list[Seat], awaited: set[int]) -> None:
        for s in seats:
            self.add(
                user=s.user,
                kind=Kind.GAME_STARTED,
                key=f"started:{self.game.pk}:{s.user_id}",
                payload={"seat": s.seat, "your_turn": s.seat in awaited},
            )

    def game_over(self, seats: list[Seat], *, seq: int) -> None:
        for s in seats:
            self.add(
                user=s.user,
                kind=Kind.GAME_OVER,
                key=f"over:{self.game.pk}:{s.user_id}",
                payload={"seat": s.seat, "seq": seq},
            )

    def timeout(self, seat: Seat, *, seq: int, action: dict[str, Any]) -> None:
        self.add(
            user=seat.user,
            kind=Kind.TIMEOUT,
            key=f"timeout:{self.game.pk}:{seq}:{seat.user_id}",
            payload={"seat": seat.seat, "seq": seq, "action": action},
        )

    def bot_took_over(self, seat: Seat, seats: list[Seat], *, seq: int) -> None:
        for s in seats:
            self.add(
                user=s.user,
                kind=Kind.BOT_TOOK_OVER,
                key=f"bot:{self.game.pk}:{seq}:{seat.seat}:{s.user_id}",
                payload={"seat": seat.seat, "seq": seq, "you": s.pk == seat.pk},
            )

    # -- writing --------------------------------------------------------------------------------

    def flush(self) -> None:
        """Insert the rows (ignoring duplicates) and send the game's pending rows after commit."""
        if not self.rows:
            return
        sql_rows.insert_many(self.rows, ignore_conflicts=True)
        self.rows = []
        schedule_send(game_id=self.game.pk)


# Publishing happens in the request that made the move: do not make the player wait on a broker
# that is down (one quick retry, then give up and leave the rows to the outbox sweep).
QUICK_PUBLISH: dict[str, Any] = {
    "retry": True,
    "retry_policy": {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.1,
        "interval_max": 0.1,
    },
}


def schedule_send(*, game_id: int | None = None, ids: list[int] | None = None) -> None:
    """After commit, queue sending of ``ids`` (or of every pending row of ``game_id``).

    A broker error is logged, not raised: the move is already committed and the outbox sweep will
    send the rows when the broker is back.
    """

    def _queue() -> None:
        from games import tasks

        try:
            if ids is not None:
                tasks.notifications_send.apply_async((ids,), **QUICK_PUBLISH)
            else:
                tasks.notifications_send_game.apply_async((game_id,), **QUICK_PUBLISH)
        except Exception:  # broker down: the periodic outbox sweep sends them later
            log.warning("could not queue notification sending (game %s); the sweep will", game_id)

    transaction.on_commit(_queue)


def schedule_send_pending() -> None:
    """After commit, queue a run of the outbox sweep (for rows written outside a game change)."""

    def _queue() -> None:
        from games import tasks

        try:
            tasks.outbox_sweep.apply_async((), **QUICK_PUBLISH)
        except Exception:
            log.warning("could not queue the outbox sweep; the periodic one will run")

    transaction.on_commit(_queue)
