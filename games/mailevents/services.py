"""One place where a report about an email we sent is recorded and acted on, whichever way it
came (a provider's webhook, a DSN to the bounce address, the SMTP server refusing a recipient).

``mail_event_record`` writes a ``MailEvent`` row (once per report: the report's own id is
unique per source) and, for the player whose current address it concerns:

  * a hard bounce or a refusal: the address is undeliverable at once;
  * a soft bounce: counted; the ``MAIL_SOFT_BOUNCE_LIMIT``-th (3) within
    ``MAIL_SOFT_BOUNCE_DAYS`` (7), since the player last confirmed the address, makes it
    undeliverable;
  * a complaint: undeliverable at once, and the player's emails are turned off;
  * an unsubscription at the provider: the player's emails are turned off.

When an address becomes undeliverable, the deadlines its player is awaited for now move
``MAIL_UNDELIVERABLE_GRACE_HOURS`` (72) later (the games' rows locked first, as a move locks
them): the turn whose email bounced is the one the player did not hear of. Later turns get the
same grace from ``games.turns`` while the player stays away from the site.
"""

from __future__ import annotations

import logging
import re
import smtplib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeGuard

from anymail.exceptions import AnymailRecipientsRefused
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.utils import timezone

from accounts import deliverability
from games.models import Game, MailEvent, Seat

log = logging.getLogger("games.mailevents")

Kind = MailEvent.Kind

#: What each kind makes the address undeliverable for (``accounts.deliverability`` reasons).
_MARKS: dict[str, str] = {
    Kind.HARD_BOUNCE: deliverability.HARD_BOUNCE,
    Kind.REJECTED: deliverability.REJECTED,
    Kind.COMPLAINT: deliverability.COMPLAINT,
}


@dataclass(frozen=True)
class Report:
    """One report about one recipient. ``user``: the player, when the report names them (the
    bounce address does); otherwise the account whose address ``address`` is."""

    source: str
    kind: str
    address: str
    event_id: str | None = None
    detail: str = ""
    notification_id: int | None = None
    user: Any = None


def _key(address: str) -> str:
    """An address as reports are stored and matched: stripped, lower case, at most 254."""
    return address.strip().lower()[:254]


def _text(value: str) -> str:
    """A report's own text without NUL (PostgreSQL stores none)."""
    return value.replace("\x00", "")


def is_address(value: object) -> TypeGuard[str]:
    """One address: text with an @, no control characters or spaces (what a report names)."""
    return (
        isinstance(value, str)
        and "@" in value
        and len(value) <= 320
        and not any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value.strip())
    )


def users_for(addresses: Iterable[str]) -> dict[str, Any]:
    """Each address (as ``_key`` writes it) -> its one account, or None (no account, or two
    sharing it), in one query per thousand addresses."""
    wanted = sorted({_key(a) for a in addresses if is_address(a)})
    found: dict[str, list[Any]] = {a: [] for a in wanted}
    users = get_user_model().objects.annotate(_email=Lower("email")).select_related("profile")
    for i in range(0, len(wanted), 1000):
        for user in users.filter(_email__in=wanted[i : i + 1000]).order_by("pk"):
            found[user._email].append(user)
    return {a: rows[0] if len(rows) == 1 else None for a, rows in found.items()}


def mail_event_record(report: Report) -> str:
    """Record ``report`` and act on it (see the module); returns the effect (also stored):
    ``marked``, ``counted``, ``emails_off``, ``already``, ``no_user``, ``old_address``,
    ``duplicate``. ``ValueError`` for a report that names no address (callers check first)."""
    return mail_events_record([report])[0]


def mail_events_record(reports: Sequence[Report]) -> list[str]:
    """Record the reports of one batch (a provider's post holds up to thousands, and waits a
    few seconds for the answer) and act on them, together or not at all: each as
    ``mail_event_record`` says, in order (a report sees the ones before it), in a number of
    queries that does not grow with the batch. Returns each report's effect."""
    for report in reports:
        if report.kind not in Kind.values:
            raise ValueError(f"unknown kind {report.kind!r}")
        if not is_address(report.address):
            raise ValueError("not an email address")
    if not reports:
        return []
    now = timezone.now()
    with transaction.atomic():
        looked_up = users_for(r.address for r in reports if r.user is None)
        users = [r.user if r.user is not None else looked_up[_key(r.address)] for r in reports]
        # The profiles locked first: a report delivered twice at once is then seen as such
        # below by the one that waited (every report that changes anything has a profile).
        changes = deliverability.Changes(users)
        before = _recorded(reports)
        soft = _SoftBounces(reports, users, changes, now)
        rows: list[MailEvent] = []
        effects: list[str] = []
        for report, user in zip(reports, users, strict=True):
            row = _row(report, user)
            if row.event_id is not None and (row.source, row.event_id) in before:
                effects.append("duplicate")
                continue
            if row.event_id is not None:
                before.add((row.source, row.event_id))
            row.effect = _act(row, changes, soft, now)
            rows.append(row)
            effects.append(row.effect)
        # A report another batch wrote meanwhile (only one nobody's profile is locked for: it
        # changes nothing) is kept once.
        MailEvent.objects.bulk_create(rows, ignore_conflicts=True)
        _deadlines_extend(changes.save())
    for row in rows:
        log.info("mail event %s %s from %s: %s", row.kind, row.address, row.source, row.effect)
    return effects


def _row(report: Report, user: Any) -> MailEvent:
    # NUL has no place in these texts (and PostgreSQL stores none): a report's own fields are
    # whatever its sender wrote.
    return MailEvent(
        source=report.source[:16],
        kind=report.kind,
        address=_key(report.address),
        user=user,
        notification_id=report.notification_id,
        event_id=_text(report.event_id)[:200] if report.event_id else None,
        detail=" ".join(_text(report.detail).split())[:500],
    )


def _recorded(reports: Sequence[Report]) -> set[tuple[str, str | None]]:
    """The (source, event id) of the reports recorded before (a provider's retry)."""
    ids = sorted({_text(r.event_id)[:200] for r in reports if r.event_id})
    sources = sorted({r.source[:16] for r in reports})
    found: set[tuple[str, str | None]] = set()
    for i in range(0, len(ids), 1000):
        rows = MailEvent.objects.filter(source__in=sources, event_id__in=ids[i : i + 1000])
        found.update(rows.values_list("source", "event_id"))
    return found


class _SoftBounces:
    """Soft bounces of each player's address within the window, since the player last
    confirmed it: the ones recorded before the batch (read at once), and the batch's so far."""

    def __init__(
        self,
        reports: Sequence[Report],
        users: Sequence[Any],
        changes: deliverability.Changes,
        now: datetime,
    ) -> None:
        self._changes = changes
        self._earliest = now - timedelta(days=int(settings.MAIL_SOFT_BOUNCE_DAYS))
        ids = sorted(
            {u.pk for r, u in zip(reports, users, strict=True) if u and r.kind == Kind.SOFT_BOUNCE}
        )
        self._before: dict[tuple[int, str], list[datetime]] = {}
        for i in range(0, len(ids), 1000):
            rows = MailEvent.objects.filter(
                kind=Kind.SOFT_BOUNCE, user_id__in=ids[i : i + 1000], created_at__gte=self._earliest
            )
            for uid, address, at in rows.values_list("user_id", "address", "created_at"):
                self._before.setdefault((uid, address), []).append(at)
        self._batch: dict[tuple[int, str], int] = {}

    def add(self, row: MailEvent) -> None:
        """``row``, a soft bounce of the batch, counts from now on."""
        if row.user_id is not None:
            key = (row.user_id, row.address)
            self._batch[key] = self._batch.get(key, 0) + 1

    def count(self, row: MailEvent) -> int:
        """The soft bounces of the row's player and address that count (this one included)."""
        since = self._earliest
        profile = self._changes.profile(row.user)
        confirmed = profile.email_confirmed_at if profile is not None else None
        if confirmed is not None and confirmed > since:
            since = confirmed
        key = (row.user_id or 0, row.address)
        earlier = sum(at >= since for at in self._before.get(key, []))
        return earlier + self._batch.get(key, 0)


def _act(row: MailEvent, changes: deliverability.Changes, soft: _SoftBounces, now: datetime) -> str:
    if row.kind == Kind.SOFT_BOUNCE:
        soft.add(row)
    user = row.user
    if user is None:
        return "no_user"
    if (user.email or "").strip().lower() != row.address:
        return "old_address"  # the player has another address now: nothing to do
    if row.kind == Kind.UNSUBSCRIBED:
        return "emails_off" if changes.emails_off(user=user) else "already"
    if row.kind == Kind.COMPLAINT:
        changes.emails_off(user=user)
    if row.kind == Kind.SOFT_BOUNCE:
        if deliverability.undeliverable(user):
            return "already"
        if soft.count(row) < int(settings.MAIL_SOFT_BOUNCE_LIMIT):
            return "counted"
        reason = deliverability.SOFT_BOUNCES
    else:
        reason = _MARKS[row.kind]
    if not changes.mark(user=user, address=row.address, reason=reason, at=now):
        if reason == deliverability.COMPLAINT:
            changes.reason_set(user=user, reason=reason)
        return "already"
    return "marked"


def _deadlines_extend(user_ids: list[int]) -> int:
    """The deadlines the players ``user_ids`` are awaited for now move ``absent_grace()`` later
    (their reminders go: nothing reaches the address). The games are locked first, in id order,
    as a move or the sweep locks them, so neither can apply a timeout from the old deadline
    meanwhile."""
    if not user_ids:
        return 0
    seats = Seat.objects.filter(user_id__in=user_ids, deadline__isnull=False, bot_controlled=False)
    game_ids = sorted(set(seats.values_list("game_id", flat=True)))
    if not game_ids:
        return 0
    running = list(
        Game.objects.select_for_update(no_key=True)  # fastpath.rows.game_for_update says why
        .filter(pk__in=game_ids, status=Game.Status.RUNNING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return seats.filter(game_id__in=running).update(
        deadline=F("deadline") + deliverability.absent_grace(), reminder_at=None
    )


#: An SMTP reply that says the address itself does not exist (RFC 3463 X.1.*): other permanent
#: refusals (a relay's "relay access denied", a policy block) say nothing about the player's
#: address and are retried as any failure.
_BAD_ADDRESS = re.compile(rb"\b5\.1\.\d{1,3}\b")


def refusal_detail(exc: BaseException) -> tuple[str, str] | None:
    """(source, detail) when a send failed because the recipient's address was refused for good:
    our SMTP server's permanent refusal of the address at RCPT (``5.1.x``), or a provider's API
    rejecting every recipient (anymail's ``AnymailRecipientsRefused``). None for anything else."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        replies = list(exc.recipients.values())
        if replies and all(
            code >= 500 and _BAD_ADDRESS.search(resp or b"") for code, resp in replies
        ):
            code, resp = replies[0]
            return "smtp", f"{code} {resp.decode('utf-8', 'replace')}"
        return None
    if isinstance(exc, AnymailRecipientsRefused):
        return "provider", str(exc)
    return None
