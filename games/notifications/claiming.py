"""Sending the outbox: claim a row, build the email, send it, mark it sent.

Claiming is one conditional UPDATE (the healthchecks.io pattern)::

    UPDATE games_notification SET status='sending', claimed_at=now, attempts=attempts+1
     WHERE id=%s AND (status='pending' OR (status='sending' AND claimed_at < now - lease))

and the caller goes on only when exactly one row changed. Two workers, a redelivered task, or the
outbox sweep racing the on-commit task cannot both win: PostgreSQL re-checks the WHERE clause of the
second UPDATE against the row the first one committed. A ``sending`` row whose worker died (killed,
host lost) is claimable again once its lease (``NOTIFY_SENDING_LEASE_SECONDS``, default 300 s) has
passed; the SMTP timeout is kept well below the lease, and a batch sends a row only while its
claim has ``lease_margin`` left (the rest go with the next claim after the lease), so a live but
slow worker is never overtaken: a row it sends is marked before anyone may claim it again
(scripts/season with a 5 s lease doubled an email without that check, none with it).

Delivery guarantee, honestly: the only window in which an email can be sent twice is between the
SMTP server accepting the message (its 250 reply to DATA) and our UPDATE to ``sent`` - a worker
killed in those few milliseconds leaves a ``sending`` row that is sent again after the lease. No
protocol closes that window (SMTP has no idempotent submit, RFC 1047); we keep it small (the UPDATE
follows the reply at once), and every attempt carries the same ``Message-ID``
(``<notification-ID.HASH@domain>``), so receiving systems and mail clients that deduplicate by
Message-ID show one message. Every other failure (broker down, worker killed before or during the
SMTP dialogue, SMTP errors) leads to exactly one delivery.

A turn notice's ``dedupe_key`` is released by the claim, so the player's next turn in that game gets
a new row while this one is being sent.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from games.models import Notification

log = logging.getLogger(__name__)

Status = Notification.Status

MAX_ATTEMPTS = 8


def lease_seconds() -> int:
    return int(settings.NOTIFY_SENDING_LEASE_SECONDS)


def retry_after_seconds() -> int:
    return int(settings.NOTIFY_RETRY_AFTER_SECONDS)


def retry_delay(attempts: int) -> timedelta:
    """How long a row that failed its ``attempts``-th send waits before the next one: the first
    wait ``NOTIFY_RETRY_AFTER_SECONDS`` (60), doubling with each attempt, at most
    ``NOTIFY_RETRY_MAX_SECONDS`` (3600). With ``MAX_ATTEMPTS`` 8 the tries span 60 + 120 + ... +
    3600 = 7,380 s: an SMTP server away for two hours loses no email (at a fixed minute they
    spanned 7 minutes, and each move of the game retried its failed rows at once, using them up
    within the season's one minute of refusal)."""
    base = max(1, retry_after_seconds())
    cap = max(base, int(settings.NOTIFY_RETRY_MAX_SECONDS))
    return timedelta(seconds=min(cap, base * 2 ** max(0, min(attempts - 1, 30))))


def smtp_timeout() -> float:
    return float(settings.EMAIL_TIMEOUT or min(30, lease_seconds() / 3))


def lease_margin() -> float:
    """A batch sends a row only while its claim has at least this long left: the time to finish
    the send (the SMTP timeout, the re-check's group) and mark it (``MARK_EVERY_SECONDS``), so a
    row is marked ``sent`` before anyone may claim it again. At most half the lease."""
    return min(lease_seconds() / 2, smtp_timeout() + RECHECK_SECONDS + 2 * MARK_EVERY_SECONDS)


#: What the lease did, logged as ``outbox lease: <event> <n> (...)`` (scripts/season counts them):
LEASE_EVENTS = {
    "reclaimed": "rows claimed again after their lease expired",
    "lease_ending": "rows not sent: their claim's lease ends too soon (claimed again after it)",
    "taken": "rows left alone: another worker claimed them meanwhile",
    "already_sent": "rows left alone: found sent by the worker whose lease had expired",
    "marked_late": "delivered rows marked sent after another worker had claimed them",
}


def lease_event(event: str, ids: list[int]) -> None:
    if ids:
        log.warning("outbox lease: %s %d (%s): %s", event, len(ids), LEASE_EVENTS[event], ids)


def notification_claim(*, notification_id: int) -> datetime | None:
    """Claim the row for sending. Returns the claim time, or None when someone else has it."""
    now = timezone.now()
    stale = now - timedelta(seconds=lease_seconds())
    return now if _claim_one(notification_id, now=now, stale=stale) else None


# -- sending in batches ---------------------------------------------------------------------------


def batch_size() -> int:
    """Rows claimed (and sent) per batch: ``NOTIFY_BATCH_SIZE`` (100)."""
    return int(settings.NOTIFY_BATCH_SIZE)


def mark_every() -> int:
    """Sent rows are marked ``sent`` after this many deliveries (and at the end of a batch)."""
    return int(settings.NOTIFY_MARK_EVERY)


def send_thread() -> bool:
    return bool(settings.NOTIFY_SEND_THREAD)


MARK_EVERY_SECONDS = 0.25


def _claimable_sql(alias: str = "") -> str:
    a = f"{alias}." if alias else ""
    return (
        f"(({a}status = 'pending' AND ({a}retry_at IS NULL OR {a}retry_at <= %(now)s))"
        f" OR ({a}status = 'sending' AND {a}claimed_at < %(stale)s))"
    )


def notifications_claim(
    *,
    ids: list[int] | None = None,
    game_id: int | None = None,
    due: bool = False,
    limit: int | None = None,
    now: datetime | None = None,
) -> tuple[list[int], datetime]:
    """Claim up to ``limit`` rows in ONE statement; returns (claimed ids, the claim time).

    Which rows: ``ids`` (any of them still claimable), or ``game_id``'s pending rows, or with
    ``due`` the rows the outbox sweep is for (pending and not waiting for a retry, or a stale
    claim). Several selectors combine with OR, ``ids`` and ``game_id`` first (so the rows a task
    was queued for go out in its own batch, then it fills up with whatever else is waiting).

    On PostgreSQL::

        WITH c AS (SELECT id FROM games_notification WHERE <which> AND <claimable>
                    ORDER BY <theirs first>, id LIMIT n FOR UPDATE SKIP LOCKED)
        UPDATE games_notification t SET status='sending', claimed_at=now, attempts=attempts+1, ...
          FROM c WHERE t.id = c.id AND <claimable> RETURNING t.id

    A row locked by another claimer is skipped, not waited for; a row another claimer changed
    between our snapshot and our lock is re-checked against <claimable> on its new version
    (READ COMMITTED re-evaluates the WHERE of a locking read), so no row is handed out twice. The
    claim commits on its own (autocommit) before anything is sent.
    """
    now = now or timezone.now()
    stale = now - timedelta(seconds=lease_seconds())
    retry_before = now - timedelta(seconds=retry_after_seconds())
    limit = limit or batch_size()
    which: list[str] = []
    first: list[str] = []
    params: dict[str, datetime | int | list[int]] = {
        "now": now,
        "stale": stale,
        "retry_before": retry_before,
    }
    if ids:
        which.append("id = ANY(%(ids)s)")
        first.append("id = ANY(%(ids)s)")
        params["ids"] = [int(i) for i in ids]
    if game_id is not None:
        which.append("(game_id = %(game_id)s AND status = 'pending')")
        first.append("game_id = %(game_id)s")
        params["game_id"] = int(game_id)
    if due:
        which.append(
            "((status = 'pending' AND (claimed_at IS NULL OR claimed_at < %(retry_before)s))"
            " OR (status = 'sending' AND claimed_at < %(stale)s))"
        )
    if not which:
        return [], now
    claimable = _claimable_sql()
    order = ", ".join([f"({f}) DESC" for f in first] + ["id"])
    if connection.vendor == "postgresql":
        sql = (
            "WITH c AS (SELECT id, status AS was FROM games_notification"
            f" WHERE ({' OR '.join(which)}) AND {claimable}"
            f" ORDER BY {order} LIMIT %(limit)s FOR UPDATE SKIP LOCKED)"
            " UPDATE games_notification AS t SET status = 'sending', claimed_at = %(now)s,"
            " attempts = t.attempts + 1,"
            " dedupe_key = CASE WHEN t.kind = 'turn' THEN NULL ELSE t.dedupe_key END"
            f" FROM c WHERE t.id = c.id AND {_claimable_sql('t')}"
            " RETURNING t.id, c.was"
        )
        params["limit"] = limit
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            returned = cursor.fetchall()
        claimed = sorted(r[0] for r in returned)
        lease_event("reclaimed", sorted(r[0] for r in returned if r[1] == Status.SENDING))
        return claimed, now
    # Elsewhere (SQLite in development: one writer at a time): candidates, then the conditional
    # UPDATE per row as ``notification_claim`` does.
    q = Q()
    if ids:
        q |= Q(pk__in=ids)
    if game_id is not None:
        q |= Q(game_id=game_id, status=Status.PENDING)
    if due:
        q |= Q(pk__in=outbox_due_ids(limit=limit))
    candidates = list(
        Notification.objects.filter(q).order_by("id").values_list("id", flat=True)[:limit]
    )
    claimed = [i for i in candidates if _claim_one(i, now=now, stale=stale)]
    return claimed, now


def _claimable(now: datetime, stale: datetime) -> Q:
    pending = Q(status=Status.PENDING) & (Q(retry_at__isnull=True) | Q(retry_at__lte=now))
    return pending | Q(status=Status.SENDING, claimed_at__lt=stale)


def _claim_one(notification_id: int, *, now: datetime, stale: datetime) -> bool:
    return (
        Notification.objects.filter(pk=notification_id)
        .filter(_claimable(now, stale))
        .update(
            status=Status.SENDING,
            claimed_at=now,
            attempts=F("attempts") + 1,
            dedupe_key=Case(
                When(kind=Notification.Kind.TURN, then=Value(None)), default=F("dedupe_key")
            ),
        )
        == 1
    )


RECHECK_GROUP = 8
RECHECK_SECONDS = 0.5


def outbox_due_ids(*, limit: int = 500) -> list[int]:
    """Rows the on-commit task did not send: pending (not retried too recently) or stale claims."""
    now = timezone.now()
    retry_before = now - timedelta(seconds=retry_after_seconds())
    stale = now - timedelta(seconds=lease_seconds())
    waited = Q(retry_at__isnull=True) | Q(retry_at__lte=now)
    return list(
        Notification.objects.filter(
            (Q(status=Status.PENDING, claimed_at__isnull=True) & waited)
            | (Q(status=Status.PENDING, claimed_at__lt=retry_before) & waited)
            | Q(status=Status.SENDING, claimed_at__lt=stale)
        )
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )
