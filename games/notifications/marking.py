"""What becomes of a claimed row after the attempt: sent, held (pace), skipped, withheld or
failed (retried with backoff), each UPDATE conditional on the claim (``claimed_at``) so a row
another worker took over is never marked by this one, and the marks of delivered rows
surviving a database cut (``surviving_a_cut``). Also the last check before a send
(``not_to_send``): the claim still ours, its lease long enough, its turn (or round sheet) still
waiting.

Claiming and the lease: ``games.notifications.claiming``; the send loop:
``games.notifications.sending``."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from games import queue as task_queue
from games.mailevents.services import Report, mail_event_record, refusal_detail
from games.models import Game, MailEvent, Move, Notification, Seat

from . import outbox
from .claiming import (
    MAX_ATTEMPTS,
    lease_event,
    lease_margin,
    lease_seconds,
    retry_after_seconds,
    retry_delay,
)

log = logging.getLogger(__name__)

Status = Notification.Status


def _finish(notification_id: int, claimed_at: datetime, **fields: object) -> bool:
    return (
        Notification.objects.filter(
            pk=notification_id, status=Status.SENDING, claimed_at=claimed_at
        ).update(**fields)
        == 1
    )


# Waits between tries of a mark whose database went away: ~30 s in all, a restart's length.
MARK_RETRY_DELAYS = (0.0, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 10.0)


def surviving_a_cut(write: Callable[[], object]) -> None:
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


def mark_sent(ids: list[int], claimed_at: datetime) -> None:
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

    surviving_a_cut(mark)
    lease_event("marked_late", sorted(marked))


def mark_held(rows: list[tuple[int, datetime]], claimed_at: datetime) -> None:
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
            mark_skipped([pk], claimed_at)
            continue
        if held:
            _send_when_the_hold_ends(pk, until)


def _send_when_the_hold_ends(pk: int, until: datetime) -> None:
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
#: because the seat had played meanwhile (``played_meanwhile``).
SKIPPED_PLAYED = "skipped: played before it was sent"
#: A failed turn email whose turn already has a newer email (``fail``).
SKIPPED_NEWER = "skipped: a newer turn email replaces it"
#: A round sheet's email to a seat not awaited, dropped just before sending because the sheet
#: no longer waits (``sheet_done_meanwhile``).
SKIPPED_ANSWERED = "skipped: its round sheet no longer waited when it was sent"


def mark_skipped(ids: list[int], claimed_at: datetime, reason: str = SKIPPED) -> None:
    if ids:
        surviving_a_cut(
            lambda: Notification.objects.filter(
                pk__in=ids, status=Status.SENDING, claimed_at=claimed_at
            ).update(status=Status.SENT, last_error=reason)
        )


#: What a batch knows of each turn email or reminder it built: (game, seat, the game's seq the
#: email describes), by notification id.
Awaited = dict[int, tuple[int, int, int]]

#: What a batch knows of each round sheet's email to a seat the game did not await when it was
#: built: (game, seat), by notification id.
Asked = dict[int, tuple[int, int]]


def not_to_send(
    awaited: Awaited, asked: Asked, claimed_at: datetime, ids: list[int]
) -> dict[int, BaseException]:
    """Which of ``ids``, about to be sent, must not go: ``TAKEN`` if the row's claim is no longer
    this batch's (its lease ran out while the batch was slow, and another worker claimed it and
    sends it: sending it here too was a duplicate), ``ALREADY_SENT`` if the worker whose lease
    ran out delivered it and marked it after we claimed it (``mark_sent``), ``LEASE_ENDING`` if
    the claim is still ours but its lease ends within ``lease_margin``: sent now, it might be
    marked only after another worker had claimed it again and sent it too (the season with a
    5 s lease); it is left ``sending`` and goes with the next claim after the lease.
    ``PLAYED`` if its turn was played meanwhile (``played_meanwhile``), ``ANSWERED`` if the
    round sheet it asks for no longer waits (``sheet_done_meanwhile``). A row the check cannot
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
    for pk in played_meanwhile(awaited, [i for i in ids if i not in out]):
        out[pk] = PLAYED
    for pk in sheet_done_meanwhile(asked, [i for i in ids if i not in out]):
        out[pk] = ANSWERED
    return out


def sheet_done_meanwhile(asked: Asked, ids: list[int]) -> set[int]:
    """Which of ``ids`` (round sheets' emails to seats not awaited, ``asked``) ask for a sheet
    that no longer waits: answered, played by hand instead, past its deadline, or the bot's
    (``Seat.sheet_waits``, ``games.sheets.asking``). One query.

    Why: a batch reads each seat's answer once, when it starts; an email built from that read
    reached its player seconds after they had answered (scripts/season). A check that fails,
    or a seat it cannot see, drops nothing: the email is sent."""
    mine = {pk: asked[pk] for pk in ids if pk in asked}
    if not mine:
        return set()
    try:
        done = {
            (g, seat)
            for g, seat, waits, bot in Seat.objects.filter(
                game_id__in={g for g, _s in mine.values()}
            ).values_list("game_id", "seat", "sheet_waits", "bot_controlled")
            if bot or not waits
        }
    except Exception as exc:  # never lose an email to the check itself
        log.warning("could not check round sheets' emails before sending (%r); sending them", exc)
        return set()
    return {pk for pk, where in mine.items() if where in done}


def played_meanwhile(awaited: Awaited, ids: list[int]) -> set[int]:
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


def withheld_reason(user: User) -> str:
    """Why an email to ``user`` is not sent (``Notification.last_error`` of a withheld row)."""
    profile = user.profile
    since = f"{profile.email_undeliverable_at:%Y-%m-%d %H:%M} UTC"
    return (
        f"withheld: {user.email} undeliverable since {since} ({profile.email_undeliverable_reason})"
    )


def mark_withheld(rows: list[tuple[int, str]], claimed_at: datetime) -> None:
    """Rows not sent on purpose, each with its reason (one UPDATE per reason)."""
    by_reason: dict[str, list[int]] = {}
    for pk, reason in rows:
        by_reason.setdefault(reason, []).append(pk)
    for reason, ids in by_reason.items():
        surviving_a_cut(functools.partial(_withhold, ids, reason, claimed_at))


def _withhold(ids: list[int], reason: str, claimed_at: datetime) -> int:
    return Notification.objects.filter(
        pk__in=ids, status=Status.SENDING, claimed_at=claimed_at
    ).update(status=Status.WITHHELD, last_error=reason[:2000])


def refused(n: Notification, claimed_at: datetime, exc: BaseException) -> str | None:
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
    mark_withheld([(n.pk, f"refused: {detail}")], claimed_at)
    return "withheld"


def fail(n: Notification, claimed_at: datetime, exc: BaseException) -> str:
    """A failed send: pending again, tried after ``retry_delay``, or ``failed`` after
    ``MAX_ATTEMPTS``. A turn email waiting for its retry takes its turn's dedupe key back (the
    claim released it), as a held one does: the moves made meanwhile add no second email for
    that game, and the retry, built afresh, tells the turn as it is then (or nothing, if the
    turn was played). Without it, a player who played and was awaited again while it waited got
    a new turn email and then this one too (scripts/season, after retries got their backoff). If
    a newer turn email already holds the key, this one gives way to it."""
    final = n.attempts >= MAX_ATTEMPTS
    log.warning("notification %s attempt %s failed: %r", n.pk, n.attempts, exc)
    fields: dict[str, object] = {
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
        mark_skipped([n.pk], claimed_at, SKIPPED_NEWER)
        return "skipped"
    return "retry"


PLAYED = RuntimeError("played before it was sent")
#: ... because the round sheet it asks for no longer waits.
ANSWERED = RuntimeError("its round sheet no longer waited")
#: The outcome of a message not sent because another worker holds its row's claim now.
TAKEN = RuntimeError("claimed by another worker meanwhile")
#: ... because the worker whose lease had run out delivered it after all, and marked it.
ALREADY_SENT = RuntimeError("sent by the worker whose lease had expired")
#: ... because its claim's lease ends before the send could be done and marked.
LEASE_ENDING = RuntimeError("its lease ends too soon")
