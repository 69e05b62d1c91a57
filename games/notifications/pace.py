"""The pace of "your turn" emails: the one rule for when a turn email waits.

A practice game against bots moves again within a second of each move: without a rule its
player got a turn email per step (8 in 4 minutes) while looking at the very page. The rule:

* a turn email is **held** while its player is active on the game's page (the page was opened
  less than ``HOLD`` ago, or it is open and follows the game over the event stream, which marks
  it again every ``STREAM_SEEN_EVERY``: ``Seat.page_seen_at``), or while the previous turn
  email of the game to them went less than ``HOLD`` ago **and they have not moved since** (it
  is likely unread; a player who answered it, by a reply, a link, the page or the API, has read
  it, and their next turn email goes at once: a game played by email replies is never slowed
  down);
* a held email is not dropped: its row stays pending and goes when the hold ends
  (``hold_until``; a task queued with that ETA sends it, or the outbox sweep, every minute, if
  the broker was down), **if the turn still waits for them** (a turn email for a turn already
  played is skipped as before, ``emails.email_build``). So never fewer than one email per turn
  that waits for the player, and one per turn at most (the pending row's ``dedupe_key``,
  ``games.notifications.outbox``).

Only turn emails are paced; every other kind goes at once. Push notices of turns
(``games.push``) keep the same rule (``push_holds_until``), counted among push notices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Q, QuerySet, Subquery

from games.models import Move, Notification, PushMessage, Seat

#: How long a page view or the previous turn email holds the next turn email, by default (the
#: setting TURN_EMAIL_HOLD_SECONDS; 0 in the live tests and scripts whose simulated players
#: answer in seconds).
HOLD = timedelta(minutes=5)


def hold() -> timedelta:
    """The hold now: ``TURN_EMAIL_HOLD_SECONDS`` (default ``HOLD``)."""
    return timedelta(seconds=getattr(settings, "TURN_EMAIL_HOLD_SECONDS", HOLD.total_seconds()))


#: Moves the player made themselves (by any channel): such a move means they read their email.
PLAYER_SOURCES = (
    Move.Source.WEB,
    Move.Source.API,
    Move.Source.EMAIL,
)
#: A page view is written at most this often (one UPDATE per seat and half-minute at most).
SEEN_EVERY = timedelta(seconds=30)
#: An open page following the game (its event stream, static/js/live.js) marks it seen again at
#: most this often per seat, whatever the number of its tabs and streams (well within ``HOLD``:
#: the mark stays fresh while the page is open and runs out ``HOLD`` after it is closed).
STREAM_SEEN_EVERY = timedelta(minutes=1)


def hold_until(n: Notification, now: datetime) -> datetime | None:
    """When the turn email ``n`` may go, if it must wait (None: it goes now)."""
    return holds_until([n], now).get(n.pk)


def holds_until(rows: Iterable[Notification], now: datetime) -> dict[int, datetime]:
    """``hold_until`` for a whole batch in two queries, whatever its size: {row id: until}.

    Rows that go now are absent. The outbox sends batches of hundreds; asking per row cost
    two queries an email.
    """
    turns = [
        (n.pk, n.game_id, n.recipient_id)
        for n in rows
        if n.kind == Notification.Kind.TURN and n.game_id is not None
    ]
    return _holds(turns, Notification.objects.filter(kind=Notification.Kind.TURN), now)


def push_holds_until(rows: Iterable[PushMessage], now: datetime) -> dict[int, datetime]:
    """The same rule for push notices (``games.push``): held while their player is on the
    game's page, or while the previous notice of that game to them went less than ``hold()``
    ago and they have not moved since. {row id: until}; rows that go now are absent."""
    turns = [(m.pk, m.game_id, m.recipient_id) for m in rows]
    return _holds(turns, PushMessage.objects.all(), now)


def _holds(
    turns: Sequence[tuple[int, int | None, int]],
    sent_rows: QuerySet[Notification] | QuerySet[PushMessage],
    now: datetime,
) -> dict[int, datetime]:
    """The rule for turn notices ``turns`` ((row id, game id, recipient id)), whose earlier
    notices are ``sent_rows`` (rows of the same outbox with ``status``, ``sent_at``, ``game_id``
    and ``recipient_id``)."""
    span = hold()
    if not span or not turns:
        return {}
    games = {g for _pk, g, _u in turns}
    users = {u for _pk, _g, u in turns}
    # The player's own last move in the game (not their plan's, their bot's or the deadline's:
    # those are not the player reading their email).
    moved = (
        Move.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat"))
        .filter(source__in=PLAYER_SOURCES)
        .order_by("-seq")
        .values("created_at")[:1]
    )
    seen: dict[tuple[int | None, int], datetime | None] = {}
    moved_at: dict[tuple[int | None, int], datetime | None] = {}
    for g, u, at, last in (
        Seat.objects.filter(game_id__in=games, user_id__in=users)
        .annotate(moved_at=Subquery(moved))
        .values_list("game_id", "user_id", "page_seen_at", "moved_at")
    ):
        seen[(g, u)] = at
        moved_at[(g, u)] = last
    # The latest notices sent within HOLD, per (game, recipient); older ones hold nothing.
    sent: dict[tuple[int | None, int], list[tuple[int, datetime]]] = {}
    for pk, g, u, at in sent_rows.filter(
        game_id__in=games, recipient_id__in=users, status="sent", sent_at__gt=now - span
    ).values_list("pk", "game_id", "recipient_id", "sent_at"):
        if at is not None:
            sent.setdefault((g, u), []).append((pk, at))
    holds: dict[int, datetime] = {}
    for row_pk, game_id, user_id in turns:
        key = (game_id, user_id)
        waits: list[datetime] = []
        at = seen.get(key)
        if at is not None and now - at < span:
            waits.append(at + span)
        last = max((when for pk, when in sent.get(key, []) if pk != row_pk), default=None)
        answered = moved_at.get(key)
        if last is not None and now - last < span and (answered is None or answered < last):
            waits.append(last + span)
        if waits:
            holds[row_pk] = max(waits)
    return holds


def page_seen(seat: Any, now: datetime) -> None:
    """The seat's player has the game's page open now (written at most every ``SEEN_EVERY``)."""
    if seat is None:
        return
    last = getattr(seat, "page_seen_at", None)
    if last is not None and now - last < SEEN_EVERY:
        return
    Seat.objects.filter(pk=seat.pk).update(page_seen_at=now)
    seat.page_seen_at = now


def stream_seen(*, game_id: int, user_id: int, now: datetime) -> bool:
    """The player has the game's page open and following the game (its event stream): marked
    seen, unless it was marked less than ``STREAM_SEEN_EVERY`` ago (by a stream or a page
    load). One conditional UPDATE, so streams in several processes write once a minute at
    most between them; a watcher without a seat writes nothing. Whether it wrote."""
    return bool(
        Seat.objects.filter(game_id=game_id, user_id=user_id)
        .filter(Q(page_seen_at__isnull=True) | Q(page_seen_at__lte=now - STREAM_SEEN_EVERY))
        .update(page_seen_at=now)
    )
