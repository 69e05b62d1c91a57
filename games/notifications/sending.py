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

import contextlib
import functools
import logging
import queue
import smtplib
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import mail
from django.db import (
    IntegrityError,
    InterfaceError,
    OperationalError,
    connection,
    connections,
    transaction,
)
from django.db.models import Case, F, Q, Value, When
from django.urls import get_resolver
from django.utils import timezone, translation

from accounts import deliverability
from games import queue as task_queue
from games import selectors
from games.fastpath import rendering, wire
from games.mailevents.services import Report, mail_event_record, refusal_detail
from games.models import Game, MailEvent, Move, Notification, Seat

from . import emails, outbox, pace

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


def notification_claim(*, notification_id: int) -> Any:
    """Claim the row for sending. Returns the claim time, or None when someone else has it."""
    now = timezone.now()
    stale = now - timedelta(seconds=lease_seconds())
    return now if _claim_one(notification_id, now=now, stale=stale) else None


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


def _send_one(message: Any, payload: tuple[str, list[str], bytes] | None) -> None:
    conn = _connection()
    if payload is None or getattr(conn, "connection", None) is None:
        conn.send_messages([message])
    else:
        # The bytes written by ``wire`` (Django's backend would build them with the email
        # package); the same SMTP dialogue: MAIL, RCPT, DATA on the open connection.
        wire.sendmail(conn.connection, *payload)


def _deliver(message: Any) -> None:
    payload = wire.smtp_payload(message) if _is_smtp() else None
    try:
        _send_one(message, payload)
    except (smtplib.SMTPServerDisconnected, ConnectionError) as exc:
        # A reused connection the server had dropped: nothing was sent on it. Once more, fresh.
        log.info("SMTP connection lost (%s); reconnecting", exc)
        connection_reset()
        _send_one(message, payload)
    except Exception:
        connection_reset()
        raise


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
    now: Any = None,
) -> tuple[list[int], Any]:
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
    params: dict[str, Any] = {"now": now, "stale": stale, "retry_before": retry_before}
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


def _claimable(now: Any, stale: Any) -> Q:
    pending = Q(status=Status.PENDING) & (Q(retry_at__isnull=True) | Q(retry_at__lte=now))
    return pending | Q(status=Status.SENDING, claimed_at__lt=stale)


def _claim_one(notification_id: int, *, now: Any, stale: Any) -> bool:
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


# Waits between tries of a mark whose database went away: ~30 s in all, a restart's length.
MARK_RETRY_DELAYS = (0.0, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 10.0)


def _surviving_a_cut(write: Callable[[], object]) -> None:
    """Run ``write``; if the database connection was cut under it (a restart, a failover, an
    administrator's ``pg_terminate_backend``), run it again on a fresh connection, waiting for
    the database to come back: tries after ``MARK_RETRY_DELAYS`` (about 30 s in all, and never
    beyond half the claim's lease, after which another worker may take the rows over).

    Why: the rows it marks were already delivered. Left ``sending``, they would be claimed again
    when their lease runs out and every recipient would get the email twice: one immediate retry
    was not enough, a restarting database refuses connections for a second or more (found by
    scripts/season, whose primary restart doubled the emails delivered in that second). Inside a
    transaction there is nothing to retry on (the transaction is gone), so the error goes up.
    """
    limit, waited = lease_seconds() / 2, 0.0
    for delay in MARK_RETRY_DELAYS:
        if waited + delay > limit:
            break
        time.sleep(delay)
        waited += delay
        try:
            write()
            return
        except (OperationalError, InterfaceError) as exc:
            if connection.in_atomic_block:
                raise
            log.warning("database unavailable while marking delivered rows (%s); retrying", exc)
            connection.close()
    write()  # the last try: its error goes up (the rows are retaken after the lease)


def _mark_sent(ids: list[int], claimed_at: Any) -> None:
    """Mark delivered rows ``sent``. A row whose claim another worker took meanwhile (this batch
    outlasted its lease) is marked sent too, whatever claim it has now, unless it is sent,
    withheld or failed for good: that worker checks the row just before sending and leaves it
    alone (``already_sent``), and a retry it queued is not made. Without this its send was a
    second delivery (the batch's mark matched no row: the claim was no longer its own)."""
    if not ids:
        return
    marked: list[int] = []

    def mark() -> None:
        now = timezone.now()
        mine = Notification.objects.filter(
            pk__in=ids, status=Status.SENDING, claimed_at=claimed_at
        ).update(status=Status.SENT, sent_at=now, last_error="")
        marked[:] = []
        if mine == len(ids):
            return
        late = list(
            Notification.objects.filter(pk__in=ids, status__in=(Status.SENDING, Status.PENDING))
            .exclude(claimed_at=claimed_at)
            .values_list("pk", flat=True)
        )
        if late:
            Notification.objects.filter(
                pk__in=late, status__in=(Status.SENDING, Status.PENDING)
            ).update(
                status=Status.SENT,
                sent_at=now,
                last_error="",
                retry_at=None,
                dedupe_key=Case(
                    When(kind=Notification.Kind.TURN, then=Value(None)), default=F("dedupe_key")
                ),
            )
            marked[:] = late

    _surviving_a_cut(mark)
    lease_event("marked_late", sorted(marked))


def _mark_held(rows: list[tuple[int, Any]], claimed_at: Any) -> None:
    """Rows held by ``pace``: pending again, due (to the outbox sweep) when their hold ends (a
    pending row is retried ``retry_after_seconds`` after its claim), the claim not counted, and
    the turn's dedupe key taken back (the claim released it), so that the moves made meanwhile
    add no second email. If one was added in between, this row gives way to it."""
    retry = timedelta(seconds=retry_after_seconds())
    for pk, until in rows:
        row = Notification.objects.filter(pk=pk).values("game_id", "recipient_id").first()
        if row is None:
            continue
        key = outbox.turn_key(row["game_id"], row["recipient_id"])
        mine = Notification.objects.filter(pk=pk, status=Status.SENDING, claimed_at=claimed_at)
        try:
            with transaction.atomic():  # a savepoint inside a caller's transaction
                held = mine.update(
                    status=Status.PENDING,
                    claimed_at=until - retry,
                    attempts=F("attempts") - 1,
                    dedupe_key=key,
                    last_error=f"held: turn emails' pace, until {until:%H:%M:%S} UTC",
                )
        except IntegrityError:  # a newer turn email is pending: it is the one that goes
            _mark_skipped([pk], claimed_at)
            continue
        if held:
            _send_when_the_hold_ends(pk, until)


def _send_when_the_hold_ends(pk: int, until: Any) -> None:
    """Queue the held row's sending for the moment its hold ends (a task with that ETA), so it
    goes then, not up to a minute later with the outbox sweep (which still sends it if the
    broker is down). The task claims the row by id and asks ``pace`` again: if the player came
    back to the page meanwhile it is held again, and if the turn was played it is skipped."""

    def _queue() -> None:
        try:
            task_queue.publish_at(task_queue.NOTIFICATIONS_SEND, until, [pk])
        except Exception:  # broker down: the sweep sends it when it is due
            log.warning("could not queue held notification %s; the sweep will send it", pk)

    transaction.on_commit(_queue)


SKIPPED = "skipped: no longer relevant"
#: A turn email (or reminder) built while its seat was awaited, dropped just before sending
#: because the seat had played meanwhile (``_played_meanwhile``).
SKIPPED_PLAYED = "skipped: played before it was sent"
#: A failed turn email whose turn already has a newer email (``_fail``).
SKIPPED_NEWER = "skipped: a newer turn email replaces it"


def _mark_skipped(ids: list[int], claimed_at: Any, reason: str = SKIPPED) -> None:
    if ids:
        _surviving_a_cut(
            lambda: Notification.objects.filter(
                pk__in=ids, status=Status.SENDING, claimed_at=claimed_at
            ).update(status=Status.SENT, last_error=reason)
        )


#: What a batch knows of each turn email or reminder it built: (game, seat, the game's seq the
#: email describes), by notification id.
Awaited = dict[int, tuple[int, int, int]]


def _not_to_send(awaited: Awaited, claimed_at: Any, ids: list[int]) -> dict[int, BaseException]:
    """Which of ``ids``, about to be sent, must not go: ``TAKEN`` if the row's claim is no longer
    this batch's (its lease ran out while the batch was slow, and another worker claimed it and
    sends it: sending it here too was a duplicate), ``ALREADY_SENT`` if the worker whose lease
    ran out delivered it and marked it after we claimed it (``_mark_sent``), ``LEASE_ENDING`` if
    the claim is still ours but its lease ends within ``lease_margin``: sent now, it might be
    marked only after another worker had claimed it again and sent it too (the season with a
    5 s lease); it is left ``sending`` and goes with the next claim after the lease.
    ``PLAYED`` if its turn was played meanwhile (``_played_meanwhile``). A row the check cannot
    see is sent (fail open)."""
    out: dict[int, BaseException] = {}
    try:
        ending = timezone.now() - timedelta(seconds=lease_seconds() - lease_margin())
        for pk, status, at in Notification.objects.filter(pk__in=ids).values_list(
            "pk", "status", "claimed_at"
        ):
            if status == Status.SENT and at == claimed_at:
                out[pk] = ALREADY_SENT
            elif status != Status.SENDING or at != claimed_at:
                out[pk] = TAKEN
            elif at < ending:
                out[pk] = LEASE_ENDING
    except Exception as exc:  # never lose an email to the check itself
        log.warning("could not check claims before sending (%r); sending them", exc)
    for pk in _played_meanwhile(awaited, [i for i in ids if i not in out]):
        out[pk] = PLAYED
    return out


def _played_meanwhile(awaited: Awaited, ids: list[int]) -> set[int]:
    """Which of ``ids`` (turn emails and reminders built from the game at the seq in
    ``awaited``) are about a turn the seat no longer has: the game moved on and the seat is not
    awaited any more, is played by the bot, or has moved since (its next turn has a row of its
    own). One query, three when a game changed.

    Why: a batch reads its games once and builds for seconds on a loaded host; an email built
    while the seat was awaited reached the player after they had moved (scripts/season: ~50 a
    run). Checked again just before each send. A check that fails (the database away) drops
    nothing: the email is sent, as before."""
    mine = {pk: awaited[pk] for pk in ids if pk in awaited}
    if not mine:
        return set()
    try:
        games = {
            pk: (status, to_act, seq)
            for pk, status, to_act, seq in Game.objects.filter(
                pk__in={g for g, _s, _q in mine.values()}
            ).values_list("pk", "status", "to_act", "seq")
        }
        changed = {g for g, _s, built in mine.values() if g in games and games[g][2] != built}
        if not changed:
            return set()
        since = min(built for g, _s, built in mine.values() if g in changed)
        moved: dict[tuple[int, int], int] = {}
        for g, seat, seq in Move.objects.filter(game_id__in=changed, seq__gt=since).values_list(
            "game_id", "seat", "seq"
        ):
            moved[(g, seat)] = max(seq, moved.get((g, seat), 0))
        bots = set(
            Seat.objects.filter(game_id__in=changed, bot_controlled=True).values_list(
                "game_id", "seat"
            )
        )
    except Exception as exc:  # never lose an email to the check itself
        log.warning("could not check turn emails before sending (%r); sending them", exc)
        return set()
    out: set[int] = set()
    for pk, (g, seat, built) in mine.items():
        if g not in changed:
            continue
        status, to_act, _seq = games[g]
        if (
            status != Game.Status.RUNNING
            or seat not in (to_act or [])
            or (g, seat) in bots
            or moved.get((g, seat), 0) > built
        ):
            out.add(pk)
    return out


def _withheld_reason(user: Any) -> str:
    """Why an email to ``user`` is not sent (``Notification.last_error`` of a withheld row)."""
    profile = user.profile
    since = f"{profile.email_undeliverable_at:%Y-%m-%d %H:%M} UTC"
    return (
        f"withheld: {user.email} undeliverable since {since} ({profile.email_undeliverable_reason})"
    )


def _mark_withheld(rows: list[tuple[int, str]], claimed_at: Any) -> None:
    """Rows not sent on purpose, each with its reason (one UPDATE per reason)."""
    by_reason: dict[str, list[int]] = {}
    for pk, reason in rows:
        by_reason.setdefault(reason, []).append(pk)
    for reason, ids in by_reason.items():
        _surviving_a_cut(functools.partial(_withhold, ids, reason, claimed_at))


def _withhold(ids: list[int], reason: str, claimed_at: Any) -> int:
    return Notification.objects.filter(
        pk__in=ids, status=Status.SENDING, claimed_at=claimed_at
    ).update(status=Status.WITHHELD, last_error=reason[:2000])


def _refused(n: Notification, claimed_at: Any, exc: BaseException) -> str | None:
    """A send the recipient's address was refused for: recorded as a refusal (the address is
    undeliverable from now on, ``games.mailevents``) and the row withheld; None for any other
    failure."""
    refusal = refusal_detail(exc)
    if refusal is None:
        return None
    source, detail = refusal
    mail_event_record(
        Report(
            source=source,
            kind=MailEvent.Kind.REJECTED,
            address=n.recipient.email,
            event_id=f"refused:{n.pk}",
            detail=detail,
            notification_id=n.pk,
            user=n.recipient,
        )
    )
    _mark_withheld([(n.pk, f"refused: {detail}")], claimed_at)
    return "withheld"


def _fail(n: Notification, claimed_at: Any, exc: BaseException) -> str:
    """A failed send: pending again, tried after ``retry_delay``, or ``failed`` after
    ``MAX_ATTEMPTS``. A turn email waiting for its retry takes its turn's dedupe key back (the
    claim released it), as a held one does: the moves made meanwhile add no second email for
    that game, and the retry, built afresh, tells the turn as it is then (or nothing, if the
    turn was played). Without it, a player who played and was awaited again while it waited got
    a new turn email and then this one too (scripts/season, after retries got their backoff). If
    a newer turn email already holds the key, this one gives way to it."""
    final = n.attempts >= MAX_ATTEMPTS
    log.warning("notification %s attempt %s failed: %r", n.pk, n.attempts, exc)
    fields: dict[str, Any] = {
        "status": Status.FAILED if final else Status.PENDING,
        "last_error": f"{type(exc).__name__}: {exc}"[:2000],
        "retry_at": None if final else timezone.now() + retry_delay(n.attempts),
    }
    if final or n.kind != Notification.Kind.TURN or n.game_id is None:
        _finish(n.pk, claimed_at, **fields)
        return "failed" if final else "retry"
    try:
        with transaction.atomic():  # a savepoint inside a caller's transaction
            _finish(
                n.pk, claimed_at, **fields, dedupe_key=outbox.turn_key(n.game_id, n.recipient_id)
            )
    except IntegrityError:  # a newer turn email is pending: it is the one that goes
        _mark_skipped([n.pk], claimed_at, SKIPPED_NEWER)
        return "skipped"
    return "retry"


#: The outcome of a message not sent because its turn was played meanwhile.
PLAYED = RuntimeError("played before it was sent")
#: The outcome of a message not sent because another worker holds its row's claim now.
TAKEN = RuntimeError("claimed by another worker meanwhile")
#: ... because the worker whose lease had run out delivered it after all, and marked it.
ALREADY_SENT = RuntimeError("sent by the worker whose lease had expired")
#: ... because its claim's lease ends before the send could be done and marked.
LEASE_ENDING = RuntimeError("its lease ends too soon")

#: A group checked at once holds at most this many messages, and a check older than this many
#: seconds is made again before the next send.
RECHECK_GROUP = 8
RECHECK_SECONDS = 0.5


class _Sender:
    """Sends built messages on a thread of its own while the caller builds the next ones.

    An SMTP exchange is mostly waiting for the server's replies (MAIL, RCPT, DATA, the final 250),
    which releases the GIL: building email N+1 overlaps sending email N. Only this thread touches
    the SMTP connection while a batch runs; outcomes come back through ``done``.
    ``NOTIFY_SEND_THREAD=False`` sends inline instead.

    Just before sending, ``check`` (ids -> those not to send, with why: ``TAKEN``, ``PLAYED``)
    runs on the messages about to go, a few at a time (``RECHECK_GROUP``, again after
    ``RECHECK_SECONDS``); those come back with their reason instead of being sent. On the thread
    it reads over the thread's own database connection (closed when the thread ends): the
    caller's is busy building.
    """

    def __init__(
        self,
        threaded: bool,
        check: Callable[[list[int]], dict[int, BaseException]] = lambda ids: {},
    ) -> None:
        self.done: queue.SimpleQueue[tuple[Notification, BaseException | None]] = (
            queue.SimpleQueue()
        )
        self.check = check
        self.todo: queue.Queue[tuple[Notification, Any] | None] | None = None
        self.thread: threading.Thread | None = None
        if threaded:
            self.todo = queue.Queue(maxsize=16)
            self.thread = threading.Thread(target=self._run, name="notify-smtp", daemon=True)
            self.thread.start()

    def _send(self, n: Notification, message: Any) -> None:
        try:
            _deliver(message)
        except Exception as exc:
            self.done.put((n, exc))
        else:
            self.done.put((n, None))

    def _send_group(self, group: list[tuple[Notification, Any]]) -> None:
        stop: dict[int, BaseException] = {}
        checked_at = -RECHECK_SECONDS
        for i, (n, message) in enumerate(group):
            if time.monotonic() - checked_at >= RECHECK_SECONDS:
                stop = self.check([m.pk for m, _ in group[i:]])
                checked_at = time.monotonic()
            if n.pk in stop:
                self.done.put((n, stop[n.pk]))
            else:
                self._send(n, message)

    def _run(self) -> None:
        assert self.todo is not None
        try:
            last = False
            while not last and (item := self.todo.get()) is not None:
                group = [item]
                while len(group) < RECHECK_GROUP:
                    try:
                        more = self.todo.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        last = True
                        break
                    group.append(more)
                self._send_group(group)
        finally:
            connections.close_all()  # this thread's connections only

    def put(self, n: Notification, message: Any, tick: Callable[[], None] = lambda: None) -> None:
        """Queue a message; while the queue is full (the SMTP server is slow), ``tick`` runs
        every ``MARK_EVERY_SECONDS`` so what was delivered meanwhile is marked."""
        if self.todo is None:
            self._send_group([(n, message)])
            return
        while True:
            try:
                self.todo.put((n, message), timeout=MARK_EVERY_SECONDS)
                return
            except queue.Full:
                tick()

    def close(self, tick: Callable[[], None] = lambda: None) -> None:
        """Wait for the last messages, running ``tick`` every ``MARK_EVERY_SECONDS``: a message
        the SMTP server is slow to accept must not keep the ones before it unmarked (a worker
        killed meanwhile would leave them to be sent again; found by scripts/season)."""
        if self.todo is not None and self.thread is not None:
            while True:
                try:
                    self.todo.put(None, timeout=MARK_EVERY_SECONDS)
                    break
                except queue.Full:
                    tick()
            while self.thread.is_alive():
                self.thread.join(MARK_EVERY_SECONDS)
                tick()

    def outcomes(self) -> list[tuple[Notification, BaseException | None]]:
        out = []
        while True:
            try:
                out.append(self.done.get_nowait())
            except queue.Empty:
                return out


def send_claimed(ids: list[int], claimed_at: Any) -> dict[str, int]:
    """Build and send the rows this worker has just claimed (``claimed_at`` is the claim's token).

    The rows are read in one query, with what their emails share (``emails.prefetch``: seats,
    profiles, last moves; each game's view once). Each email goes over the one reused SMTP
    connection (on a sender thread, overlapping the building of the next). Delivered rows are
    marked ``sent`` in one UPDATE every ``NOTIFY_MARK_EVERY`` deliveries (20) or quarter second,
    and at the end; a failure is marked on its own row. A row whose recipient's address is
    undeliverable (``accounts.deliverability``) is not sent but ``withheld``, with the reason.
    """
    counts: dict[str, int] = {}
    if not ids:
        return counts

    def count(outcome: str) -> None:
        counts[outcome] = counts.get(outcome, 0) + 1

    rows = list(
        Notification.objects.filter(pk__in=ids, status=Status.SENDING, claimed_at=claimed_at)
        .select_related("recipient__profile", "game")
        .order_by("id")
    )
    pf = emails.prefetch(rows)
    delivered: list[int] = []
    skipped: list[int] = []
    held: list[tuple[int, Any]] = []
    now = timezone.now()
    played: list[int] = []
    withheld: list[tuple[int, str]] = []
    marked_at = time.monotonic()
    awaited: Awaited = {}
    sender = _Sender(
        send_thread() and len(rows) > 1, functools.partial(_not_to_send, awaited, claimed_at)
    )

    left: dict[str, list[int]] = {"taken": [], "already_sent": [], "lease_ending": []}

    def collect(force: bool = False) -> None:
        nonlocal delivered, marked_at
        for n, exc in sender.outcomes():
            if exc is None:
                delivered.append(n.pk)
                count("sent")
            elif exc is PLAYED:
                played.append(n.pk)
                count("skipped")
            elif exc in (TAKEN, ALREADY_SENT, LEASE_ENDING):
                # the other worker's now, or sent, or claimed again after its lease: nothing to
                # send or mark here
                why = {id(TAKEN): "taken", id(ALREADY_SENT): "already_sent"}.get(
                    id(exc), "lease_ending"
                )
                left[why].append(n.pk)
                count(why)
            else:
                count(_refused(n, claimed_at, exc) or _fail(n, claimed_at, exc))
        if delivered and (
            force
            or len(delivered) >= mark_every()
            or time.monotonic() - marked_at > MARK_EVERY_SECONDS
        ):
            _mark_sent(delivered, claimed_at)
            delivered = []
            marked_at = time.monotonic()

    holds = pace.holds_until(rows, now)
    try:
        for n in rows:
            if deliverability.undeliverable(n.recipient):
                # Nothing goes to an address known not to work; the row says why.
                withheld.append((n.pk, _withheld_reason(n.recipient)))
                count("withheld")
                continue
            until = holds.get(n.pk)
            if until is not None:
                # A turn email while its player is on the page, or just after the last one:
                # it waits, and goes then if the turn still waits for them (pace's rule).
                held.append((n.pk, until))
                count("held")
                continue
            try:
                message = emails.email_build(n, pf)
            except Exception as exc:
                count(_fail(n, claimed_at, exc))
                continue
            if message is None:
                skipped.append(n.pk)
                count("skipped")
                continue
            if n.kind in (Notification.Kind.TURN, Notification.Kind.REMINDER) and n.game:
                seat = selectors.seat_of(n.game, n.recipient)
                if seat is not None:  # checked again just before it goes
                    awaited[n.pk] = (n.game.pk, seat.seat, n.game.seq)
            sender.put(n, message, collect)
            collect()
    finally:
        # Also when something unexpected escapes (the rows not reached stay `sending` and are
        # taken again after the lease): what was delivered must not be delivered twice.
        sender.close(collect)
        collect(force=True)
        _mark_skipped(skipped, claimed_at)
        _mark_skipped(played, claimed_at, SKIPPED_PLAYED)
        _mark_withheld(withheld, claimed_at)
        _mark_held(held, claimed_at)
        for event, pks in left.items():
            lease_event(event, pks)
    return counts


def warm_up() -> None:
    """Do once at worker start what the first email would otherwise pay for (URL configuration,
    the email templates compiled and translated in each language, translations), so the first
    email after a restart is not late."""
    get_resolver().url_patterns  # noqa: B018 - imports every URL module once
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Your turn")
            for template, _builder in emails.BUILDERS.values():
                for suffix in ("_subject.txt", ".txt", ".html"):
                    rendering.load(f"emails/{template}{suffix}")


def _merge(total: dict[str, int], part: dict[str, int]) -> None:
    for k, v in part.items():
        total[k] = total.get(k, 0) + v


def notifications_send_batch(
    *,
    ids: list[int] | None = None,
    game_id: int | None = None,
    due: bool = False,
    limit: int | None = None,
) -> dict[str, int]:
    """Claim one batch (see ``notifications_claim``) and send it."""
    claimed, claimed_at = notifications_claim(ids=ids, game_id=game_id, due=due, limit=limit)
    if not claimed:
        return {"taken": len(ids or [])} if ids else {}
    counts = send_claimed(claimed, claimed_at)
    if ids:
        taken = len(set(ids) - set(claimed))
        if taken:
            counts["taken"] = counts.get("taken", 0) + taken
    return counts


def notification_send(*, notification_id: int) -> str:
    """Claim, build, send, mark ONE row. Returns what happened: sent, skipped, taken, retry,
    failed."""
    counts = notifications_send_batch(ids=[notification_id], limit=1)
    return next(iter(counts), "taken")


def notifications_send(*, ids: list[int], drain: bool = False) -> dict[str, int]:
    """Send ``ids`` (in batches). With ``drain``, each batch is filled up with other due rows."""
    counts: dict[str, int] = {}
    ids = [int(i) for i in ids]
    size = batch_size()
    for start in range(0, max(1, len(ids)), size):
        _merge(counts, notifications_send_batch(ids=ids[start : start + size], due=drain))
    return counts


def notifications_send_game(*, game_id: int, drain: bool = False) -> dict[str, int]:
    """The on-commit task: a game's pending rows (and, with ``drain``, other due rows with them,
    so a burst of moves is sent in a few batches and the later tasks find nothing left)."""
    return notifications_send_batch(game_id=game_id, due=drain)


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


def outbox_sweep(*, limit: int = 500, budget_seconds: float = 50.0) -> dict[str, int]:
    """Send what was left behind (periodic), a batch at a time. Safe to run concurrently with
    anything."""
    start = time.monotonic()
    counts: dict[str, int] = {}
    done = 0
    while done < limit and time.monotonic() - start < budget_seconds:
        part = notifications_send_batch(due=True, limit=min(batch_size(), limit - done))
        if not part:
            break
        _merge(counts, part)
        done += sum(part.values())
    return counts
