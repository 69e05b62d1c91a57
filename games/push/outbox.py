"""Writing push notices: ``PushMessage`` rows in the transaction of the change that made a
player's turn, one per device of theirs that takes turn notices, sent after commit.

The move's hot path pays nothing for a player without such a device: ``Profile.push_turns``
(read with the seats' profiles) says whether to look for their devices at all."""

from __future__ import annotations

import logging

from django.db import transaction

from accounts.models import PushSubscription
from games import queue
from games.models import Game, PushMessage, Seat

log = logging.getLogger(__name__)


def wants_push(seat: Seat) -> bool:
    profile = getattr(seat.user, "profile", None)
    return bool(getattr(profile, "push_turns", False))


def push_key(game_id: int, subscription_id: int) -> str:
    """One pending notice per (game, device): the moves made before it goes add none."""
    return f"push:{game_id}:{subscription_id}"


def write(game: Game, seats: list[Seat]) -> None:
    """Rows for the turns of ``seats`` (each awaited now at ``game.seq``), and their sending
    queued after commit. One query for the devices, one INSERT (a pending row already there for
    a device is kept: ``ON CONFLICT DO NOTHING`` on the key)."""
    seats = [s for s in seats if wants_push(s) and not s.bot_controlled]
    if not seats or not game.notify:
        return
    by_user = {s.user_id: s for s in seats}
    rows = [
        PushMessage(
            subscription_id=sub_id,
            recipient_id=user_id,
            game=game,
            seat=by_user[user_id].seat,
            seq=game.seq,
            dedupe_key=push_key(game.pk, sub_id),
        )
        for sub_id, user_id in PushSubscription.objects.filter(
            user_id__in=by_user, turns=True
        ).values_list("pk", "user_id")
    ]
    if rows:
        PushMessage.objects.bulk_create(rows, ignore_conflicts=True)
        schedule(game_id=game.pk)


def schedule(*, game_id: int | None = None, ids: list[int] | None = None) -> None:
    """After commit, queue the sending (the push sweep sends them if the broker is down)."""

    def go() -> None:
        try:
            queue.publish(queue.PUSH_SEND, ids or [], game_id)
        except Exception:  # broker down: the periodic sweep sends them
            log.warning("could not queue push notices (game %s); the sweep will", game_id)

    transaction.on_commit(go)
