"""Sending the outbox: claim a batch of rows, build their emails, send them, mark them.

The reliability (claiming, the lease, why an email is sent at most twice and only in a window
of milliseconds) is ``games.notifications.claiming``'s; what becomes of each row after its
attempt, ``games.notifications.marking``'s; the SMTP connection and the sending thread,
``games.notifications.smtp``'s; building each kind of email, ``games.notifications.emails``'s.
This module puts them together: ``send_claimed`` (one batch), the tasks' entry points and the
outbox sweep.
"""

from __future__ import annotations

import functools
import time
from datetime import datetime

from django.conf import settings
from django.urls import get_resolver
from django.utils import timezone, translation

from accounts import deliverability
from games import selectors
from games.fastpath import rendering
from games.models import Notification

from . import claiming, emails, marking, pace, smtp

Status = Notification.Status


def send_claimed(ids: list[int], claimed_at: datetime) -> dict[str, int]:
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
    held: list[tuple[int, datetime]] = []
    now = timezone.now()
    played: list[int] = []
    withheld: list[tuple[int, str]] = []
    marked_at = time.monotonic()
    awaited: marking.Awaited = {}
    asked: marking.Asked = {}
    answered: list[int] = []
    sender = smtp.Sender(
        claiming.send_thread() and len(rows) > 1,
        functools.partial(marking.not_to_send, awaited, asked, claimed_at),
    )

    left: dict[str, list[int]] = {"taken": [], "already_sent": [], "lease_ending": []}

    def collect(force: bool = False) -> None:
        nonlocal delivered, marked_at
        for n, exc in sender.outcomes():
            if exc is None:
                delivered.append(n.pk)
                count("sent")
            elif exc is marking.PLAYED:
                played.append(n.pk)
                count("skipped")
            elif exc is marking.ANSWERED:
                answered.append(n.pk)
                count("skipped")
            elif exc in (marking.TAKEN, marking.ALREADY_SENT, marking.LEASE_ENDING):
                # the other worker's now, or sent, or claimed again after its lease: nothing to
                # send or mark here
                why = {id(marking.TAKEN): "taken", id(marking.ALREADY_SENT): "already_sent"}.get(
                    id(exc), "lease_ending"
                )
                left[why].append(n.pk)
                count(why)
            else:
                count(marking.refused(n, claimed_at, exc) or marking.fail(n, claimed_at, exc))
        if delivered and (
            force
            or len(delivered) >= claiming.mark_every()
            or time.monotonic() - marked_at > claiming.MARK_EVERY_SECONDS
        ):
            marking.mark_sent(delivered, claimed_at)
            delivered = []
            marked_at = time.monotonic()

    holds = pace.holds_until(rows, now)
    try:
        for n in rows:
            if deliverability.undeliverable(n.recipient):
                # Nothing goes to an address known not to work; the row says why.
                withheld.append((n.pk, marking.withheld_reason(n.recipient)))
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
                count(marking.fail(n, claimed_at, exc))
                continue
            if message is None:
                skipped.append(n.pk)
                count("skipped")
                continue
            if n.kind in (Notification.Kind.TURN, Notification.Kind.REMINDER) and n.game:
                seat = selectors.seat_of(n.game, n.recipient)
                # Checked again just before it goes: its turn, or for a seat not awaited its
                # round sheet's email (games.sheets.asking), the sheet still waiting.
                if seat is not None and seat.seat in (n.game.to_act or []):
                    awaited[n.pk] = (n.game.pk, seat.seat, n.game.seq)
                elif seat is not None:
                    asked[n.pk] = (n.game.pk, seat.seat)
            sender.put(n, message, collect)
            collect()
    finally:
        # Also when something unexpected escapes (the rows not reached stay `sending` and are
        # taken again after the lease): what was delivered must not be delivered twice.
        sender.close(collect)
        collect(force=True)
        marking.mark_skipped(skipped, claimed_at)
        marking.mark_skipped(played, claimed_at, marking.SKIPPED_PLAYED)
        marking.mark_skipped(answered, claimed_at, marking.SKIPPED_ANSWERED)
        marking.mark_withheld(withheld, claimed_at)
        marking.mark_held(held, claimed_at)
        for event, pks in left.items():
            claiming.lease_event(event, pks)
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
    claimed, claimed_at = claiming.notifications_claim(
        ids=ids, game_id=game_id, due=due, limit=limit
    )
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
    size = claiming.batch_size()
    for start in range(0, max(1, len(ids)), size):
        _merge(counts, notifications_send_batch(ids=ids[start : start + size], due=drain))
    return counts


def notifications_send_game(*, game_id: int, drain: bool = False) -> dict[str, int]:
    """The on-commit task: a game's pending rows (and, with ``drain``, other due rows with them,
    so a burst of moves is sent in a few batches and the later tasks find nothing left)."""
    return notifications_send_batch(game_id=game_id, due=drain)


def outbox_sweep(*, limit: int = 500, budget_seconds: float = 50.0) -> dict[str, int]:
    """Send what was left behind (periodic), a batch at a time. Safe to run concurrently with
    anything."""
    start = time.monotonic()
    counts: dict[str, int] = {}
    done = 0
    while done < limit and time.monotonic() - start < budget_seconds:
        part = notifications_send_batch(due=True, limit=min(claiming.batch_size(), limit - done))
        if not part:
            break
        _merge(counts, part)
        done += sum(part.values())
    return counts
