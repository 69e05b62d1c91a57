"""The pace of "your turn" emails: the one rule for when a turn email waits.

A practice game against bots moves again within a second of each move: without a rule its
player got a turn email per step (8 in 4 minutes) while looking at the very page. The rule:

* a turn email is **held** while its player is active on the game's page (the page was opened
  less than ``HOLD`` ago, ``Seat.page_seen_at``), or while the previous turn email of the game
  to them went less than ``HOLD`` ago (they have likely not read it yet);
* a held email is not dropped: its row stays pending and goes when the hold ends
  (``hold_until``; the outbox sweep, every minute, sends it), **if the turn still waits for
  them** (a turn email for a turn already played is skipped as before, ``emails.email_build``).
  So never fewer than one email per turn that waits for the player, and one per turn at most
  (the pending row's ``dedupe_key``, ``games.notifications.outbox``).

Only turn emails are paced; every other kind goes at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.models import Notification, Seat

#: How long a page view or the previous turn email holds the next turn email.
HOLD = timedelta(minutes=5)
#: A page view is written at most this often (one UPDATE per seat and half-minute at most).
SEEN_EVERY = timedelta(seconds=30)


def hold_until(n: Notification, now: datetime) -> datetime | None:
    """When the turn email ``n`` may go, if it must wait (None: it goes now)."""
    if n.kind != Notification.Kind.TURN or n.game_id is None:
        return None
    waits: list[datetime] = []
    seen = (
        Seat.objects.filter(game_id=n.game_id, user_id=n.recipient_id)
        .values_list("page_seen_at", flat=True)
        .first()
    )
    if seen is not None and now - seen < HOLD:
        waits.append(seen + HOLD)
    sent = (
        Notification.objects.filter(
            game_id=n.game_id,
            recipient_id=n.recipient_id,
            kind=Notification.Kind.TURN,
            status=Notification.Status.SENT,
            sent_at__isnull=False,
        )
        .exclude(pk=n.pk)
        .order_by("-sent_at")
        .values_list("sent_at", flat=True)
        .first()
    )
    if sent is not None and now - sent < HOLD:
        waits.append(sent + HOLD)
    return max(waits) if waits else None


def page_seen(seat: Any, now: datetime) -> None:
    """The seat's player has the game's page open now (written at most every ``SEEN_EVERY``)."""
    if seat is None:
        return
    last = getattr(seat, "page_seen_at", None)
    if last is not None and now - last < SEEN_EVERY:
        return
    Seat.objects.filter(pk=seat.pk).update(page_seen_at=now)
    seat.page_seen_at = now
