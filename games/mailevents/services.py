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
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeGuard

from anymail.exceptions import AnymailRecipientsRefused
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
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


def _user_for(address: str) -> Any:
    users = list(
        get_user_model()
        .objects.filter(email__iexact=address)
        .select_related("profile")
        .order_by("pk")[:2]
    )
    return users[0] if len(users) == 1 else None


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


def mail_event_record(report: Report) -> str:
    """Record ``report`` and act on it (see the module); returns the effect (also stored):
    ``marked``, ``counted``, ``emails_off``, ``already``, ``no_user``, ``old_address``,
    ``duplicate``. ``ValueError`` for a report that names no address (callers check first)."""
    if report.kind not in Kind.values:
        raise ValueError(f"unknown kind {report.kind!r}")
    if not is_address(report.address):
        raise ValueError("not an email address")
    address = report.address.strip().lower()[:254]
    # NUL has no place in these texts (and PostgreSQL stores none): a report's own fields are
    # whatever its sender wrote.
    event_id = _text(report.event_id)[:200] if report.event_id else None
    detail = " ".join(_text(report.detail).split())[:500]
    with transaction.atomic():
        try:
            with transaction.atomic():
                row = MailEvent.objects.create(
                    source=report.source[:16],
                    kind=report.kind,
                    address=address,
                    user=report.user if report.user is not None else _user_for(address),
                    notification_id=report.notification_id,
                    event_id=event_id,
                    detail=detail,
                )
        except IntegrityError:  # the same report, delivered again (or at the same moment)
            return "duplicate"
        effect = _act(row)
        MailEvent.objects.filter(pk=row.pk).update(effect=effect)
    log.info("mail event %s %s from %s: %s", report.kind, address, report.source, effect)
    return effect


def _act(row: MailEvent) -> str:
    user = row.user
    if user is None:
        return "no_user"
    if (user.email or "").strip().lower() != row.address:
        return "old_address"  # the player has another address now: nothing to do
    if row.kind == Kind.UNSUBSCRIBED:
        return "emails_off" if deliverability.emails_off(user=user) else "already"
    if row.kind == Kind.COMPLAINT:
        deliverability.emails_off(user=user)
    if row.kind == Kind.SOFT_BOUNCE:
        if deliverability.undeliverable(user):
            return "already"
        if _soft_bounces(row) < int(settings.MAIL_SOFT_BOUNCE_LIMIT):
            return "counted"
        reason = deliverability.SOFT_BOUNCES
    else:
        reason = _MARKS[row.kind]
    if not deliverability.address_mark_undeliverable(
        user=user, address=row.address, reason=reason, at=row.created_at
    ):
        if reason == deliverability.COMPLAINT:
            deliverability.reason_set(user=user, reason=reason)
        return "already"
    _deadlines_extend(user)
    return "marked"


def _soft_bounces(row: MailEvent) -> int:
    """Soft bounces of this address within the window, this one included, since the player last
    confirmed it."""
    since = timezone.now() - timedelta(days=int(settings.MAIL_SOFT_BOUNCE_DAYS))
    confirmed = deliverability.soft_bounces_since(row.user)
    if confirmed is not None and confirmed > since:
        since = confirmed
    return MailEvent.objects.filter(
        user=row.user, address=row.address, kind=Kind.SOFT_BOUNCE, created_at__gte=since
    ).count()


def _deadlines_extend(user: Any) -> int:
    """The deadlines ``user`` is awaited for now move ``absent_grace()`` later (their reminders go:
    nothing reaches the address). The games are locked first, in id order, as a move or the
    sweep locks them, so neither can apply a timeout from the old deadline meanwhile."""
    game_ids = list(
        Seat.objects.filter(user=user, deadline__isnull=False, bot_controlled=False)
        .values_list("game_id", flat=True)
        .distinct()
    )
    if not game_ids:
        return 0
    running = list(
        Game.objects.select_for_update(no_key=True)  # fastpath.rows.game_for_update says why
        .filter(pk__in=game_ids, status=Game.Status.RUNNING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return Seat.objects.filter(
        user=user, game_id__in=running, deadline__isnull=False, bot_controlled=False
    ).update(deadline=F("deadline") + deliverability.absent_grace(), reminder_at=None)


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
