"""Sending the outbox: claim a row, build the email, send it, mark it sent.

Claiming is one conditional UPDATE (the healthchecks.io pattern)::

    UPDATE games_notification SET status='sending', claimed_at=now, attempts=attempts+1
     WHERE id=%s AND (status='pending' OR (status='sending' AND claimed_at < now - lease))

and the caller goes on only when exactly one row changed. Two workers, a redelivered task, or the
outbox sweep racing the on-commit task cannot both win: PostgreSQL re-checks the WHERE clause of the
second UPDATE against the row the first one committed. A ``sending`` row whose worker died (killed,
host lost) is claimable again once its lease (``NOTIFY_SENDING_LEASE_SECONDS``, default 300 s) has
passed; the SMTP timeout is kept well below the lease so a live but slow worker is never overtaken.

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

import contextlib
import logging
import smtplib
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import mail
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from games.models import Notification

log = logging.getLogger(__name__)

Status = Notification.Status

MAX_ATTEMPTS = 8


def lease_seconds() -> int:
    return int(getattr(settings, "NOTIFY_SENDING_LEASE_SECONDS", 300))


def retry_after_seconds() -> int:
    return int(getattr(settings, "NOTIFY_RETRY_AFTER_SECONDS", 60))


def smtp_timeout() -> float:
    return float(getattr(settings, "EMAIL_TIMEOUT", None) or min(30, lease_seconds() / 3))


def notification_claim(*, notification_id: int) -> Any:
    """Claim the row for sending. Returns the claim time, or None when someone else has it."""
    now = timezone.now()
    stale = now - timedelta(seconds=lease_seconds())
    changed = (
        Notification.objects.filter(pk=notification_id)
        .filter(Q(status=Status.PENDING) | Q(status=Status.SENDING, claimed_at__lt=stale))
        .update(
            status=Status.SENDING,
            claimed_at=now,
            attempts=F("attempts") + 1,
            dedupe_key=Case(
                When(kind=Notification.Kind.TURN, then=Value(None)), default=F("dedupe_key")
            ),
        )
    )
    return now if changed == 1 else None


def _finish(notification_id: int, claimed_at: Any, **fields: Any) -> bool:
    return (
        Notification.objects.filter(
            pk=notification_id, status=Status.SENDING, claimed_at=claimed_at
        ).update(**fields)
        == 1
    )


# -- one SMTP connection per worker process, reused across tasks --------------------------------

_conn: Any = None
_conn_used = 0.0
IDLE_RECONNECT_SECONDS = 20.0


def _is_smtp() -> bool:
    return settings.EMAIL_BACKEND.endswith("smtp.EmailBackend")


def _connection() -> Any:
    global _conn, _conn_used
    if not _is_smtp():
        return mail.get_connection()  # file/locmem/anymail: opened and closed per send
    now = time.monotonic()
    if _conn is not None and now - _conn_used > IDLE_RECONNECT_SECONDS:
        connection_reset()
    if _conn is None:
        _conn = mail.get_connection(timeout=smtp_timeout())
        _conn.open()
    _conn_used = now
    return _conn


def connection_reset() -> None:
    global _conn
    if _conn is not None:
        with contextlib.suppress(Exception):
            _conn.close()
    _conn = None


def _deliver(message: Any) -> None:
    try:
        _connection().send_messages([message])
    except (smtplib.SMTPServerDisconnected, ConnectionError) as exc:
        # A reused connection the server had dropped: nothing was sent on it. Once more, fresh.
        log.info("SMTP connection lost (%s); reconnecting", exc)
        connection_reset()
        _connection().send_messages([message])
    except Exception:
        connection_reset()
        raise


def notification_send(*, notification_id: int) -> str:
    """Claim, build, send, mark. Returns what happened: sent, skipped, taken, retry, failed."""
    from .emails import email_build

    claimed_at = notification_claim(notification_id=notification_id)
    if claimed_at is None:
        return "taken"
    n = Notification.objects.select_related("recipient__profile", "game").get(pk=notification_id)
    try:
        message = email_build(n)
        if message is None:
            _finish(n.pk, claimed_at, status=Status.SENT, last_error="skipped: no longer relevant")
            return "skipped"
        _deliver(message)
    except Exception as exc:
        final = n.attempts >= MAX_ATTEMPTS
        log.warning("notification %s attempt %s failed: %r", n.pk, n.attempts, exc)
        _finish(
            n.pk,
            claimed_at,
            status=Status.FAILED if final else Status.PENDING,
            last_error=f"{type(exc).__name__}: {exc}"[:2000],
        )
        return "failed" if final else "retry"
    _finish(n.pk, claimed_at, status=Status.SENT, sent_at=timezone.now(), last_error="")
    return "sent"


def notifications_send(*, ids: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for i in ids:
        outcome = notification_send(notification_id=i)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def notifications_send_game(*, game_id: int) -> dict[str, int]:
    ids = list(
        Notification.objects.filter(game_id=game_id, status=Status.PENDING)
        .order_by("id")
        .values_list("id", flat=True)[:500]
    )
    return notifications_send(ids=ids)


def outbox_due_ids(*, limit: int = 500) -> list[int]:
    """Rows the on-commit task did not send: pending (not retried too recently) or stale claims."""
    now = timezone.now()
    retry_before = now - timedelta(seconds=retry_after_seconds())
    stale = now - timedelta(seconds=lease_seconds())
    return list(
        Notification.objects.filter(
            Q(status=Status.PENDING, claimed_at__isnull=True)
            | Q(status=Status.PENDING, claimed_at__lt=retry_before)
            | Q(status=Status.SENDING, claimed_at__lt=stale)
        )
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )


def outbox_sweep(*, limit: int = 500, budget_seconds: float = 50.0) -> dict[str, int]:
    """Send what was left behind (periodic). Safe to run concurrently with anything."""
    start = time.monotonic()
    counts: dict[str, int] = {}
    for i in outbox_due_ids(limit=limit):
        if time.monotonic() - start > budget_seconds:
            break
        outcome = notification_send(notification_id=i)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts
