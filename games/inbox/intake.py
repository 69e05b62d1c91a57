"""Inbound mail stored first, handled after: what the LMTP service (``games.inbox.lmtp``) does
with a message, and what the worker does with it next.

The MTA hands a message to the service, which answers 250 only once the message is an
``InboundMail`` row (status ``queued``, its bytes in ``raw``) committed to the database; the
MTA then forgets it. The handling (parse, apply the move, answer: ``mail_receive``, the same code
as the pipe and the provider webhooks) runs in the worker (``inbound_process``), and a periodic
sweep (``inbound_sweep``) hands again any row whose task was lost (broker down, worker killed).
So a crash after 250 loses nothing.

A message delivered twice (the MTA retrying after a lost 250, two MX hosts) is stored once: the
queued row's ``message_id`` is the message's Message-ID, or ``sha256:<hash of its bytes>`` when
it has none (the trace fields aside: ``receive.dedupe_key``), and the column is unique; the rows
the handling leaves keep that key, so a delivery after the handling is stored once too. Handling
deletes the queued row and calls ``mail_receive`` in the same transaction, whose own Message-ID
check and the token's applied-once constraint make a move at most once whatever path a message
took.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.inbox import tokens
from games.inbox.receive import dedupe_key, mail_receive
from games.mailevents import verp
from games.models import InboundMail

log = logging.getLogger("games.inbox")


def address_kind(address: str) -> str | None:
    """``reply`` (a reply address with a token we signed, expired or not: its owner is told it
    expired), ``bounce`` (a VERP bounce address of ours), or None (nobody: refused at RCPT)."""
    local, _, domain = address.strip().strip("<>").rpartition("@")
    domain = domain.lower()
    if not local:
        return None
    reply = tokens.ADDRESS.fullmatch(f"{local}@")
    if reply and domain == settings.INBOUND_EMAIL_DOMAIN.lower():
        try:
            tokens.read_token(reply.group(1).lower(), expired_ok=True)
        except tokens.BadToken:
            return None
        return "reply"
    bounce = verp.ADDRESS.fullmatch(f"{local}@")
    if bounce and domain == settings.BOUNCE_EMAIL_DOMAIN.lower():
        try:
            verp.read_token(bounce.group(1).lower())
        except verp.BadBounceToken:
            return None
        return "bounce"
    return None


def database_ping() -> None:
    """Raise ``OperationalError``/``InterfaceError`` when the database cannot be reached (a
    broken connection is dropped first, as Django does before each request)."""
    if connection.connection is not None and not connection.is_usable():
        connection.close()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


@dataclass(frozen=True)
class Stored:
    """A stored message: its row, and whether this delivery made it (False: a duplicate)."""

    row_id: int
    new: bool


def intake_store(raw: bytes, *, recipient: str, via: str = "lmtp") -> Stored:
    """Store one message (one transaction; raises ``OperationalError`` when the database is
    away, and the service answers 451). A delivery of a message stored before returns its row."""
    key = dedupe_key(raw)
    try:
        with transaction.atomic():
            row = InboundMail.objects.create(
                message_id=key,
                via=via[:16],
                status=InboundMail.Status.QUEUED,
                recipient=recipient[:254],
                raw=raw,
            )
    except IntegrityError:
        earlier = InboundMail.objects.filter(message_id=key).values_list("pk", flat=True).first()
        return Stored(row_id=earlier or 0, new=False)
    return Stored(row_id=row.pk, new=True)


def inbound_process(row_id: int) -> str:
    """Handle one stored message (the worker's task; safe to run twice: the row is locked and
    re-checked). The queued row goes and ``mail_receive``'s rows come in one transaction: a
    failure or a crash leaves the queued row for the sweep."""
    with transaction.atomic():
        row = (
            InboundMail.objects.select_for_update(skip_locked=True)
            .filter(pk=row_id, status=InboundMail.Status.QUEUED)
            .only("pk", "raw", "recipient", "via")
            .first()
        )
        if row is None:
            return "gone"
        raw, recipient, via = bytes(row.raw or b""), row.recipient, row.via
        row.delete()
        result = mail_receive(raw, via=via, envelope_recipient=recipient or None)
    return f"{result.status} {result.code}".strip()


def inbound_sweep(*, older_than: float | None = None, limit: int = 200) -> int:
    """Handle the queued rows older than ``older_than`` seconds (their task was lost); the
    number handled."""
    age = settings.INBOUND_SWEEP_AFTER_SECONDS if older_than is None else older_than
    since = timezone.now() - timedelta(seconds=age)
    ids = list(
        InboundMail.objects.filter(status=InboundMail.Status.QUEUED, created_at__lte=since)
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
    done = 0
    for row_id in ids:
        if inbound_process(row_id) != "gone":
            done += 1
    if done:
        log.warning("inbound sweep: %d stored message(s) handled whose task was lost", done)
    return done
