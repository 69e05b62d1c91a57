"""A message to a bounce address (``verp``), from the inbound path replies take
(``games.inbox.receive.mail_receive``: the MTA's pipe, the provider's inbound webhook): read
(``dsn``) and recorded (``services``). Every message is logged as an ``InboundMail`` row, never
answered (no mail to a mail system, no backscatter):

  * ``bounce_hard``, ``bounce_soft``, ``complaint``: a report recorded as a ``MailEvent`` for the
    player and address the bounce address was made for;
  * ``bounce_none``: not a failure (a delay notice, an out-of-office reply to the return address);
  * ``bounce_forged``: a bounce address we did not make; ``bounce_no_user``; ``bounce_old_address``:
    the email went to an address the player has changed since;
  * ``duplicate``: the same message (Message-ID) handled before.
"""

from __future__ import annotations

import logging
from email.message import Message
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.models import InboundMail

from . import dsn, verp
from .services import Report, mail_event_record

log = logging.getLogger("games.mailevents")

_CODES = {dsn.HARD: "bounce_hard", dsn.SOFT: "bounce_soft", dsn.COMPLAINT: "complaint"}


def bounce_receive(
    msg: Message, *, via: str, envelope_recipient: str | None, sender: str, message_id: str | None
) -> str | None:
    """Handle ``msg`` if it was sent to a bounce address: the code it was logged with; None when
    it was not (the reply path goes on with it)."""
    token = verp.find_token(msg, envelope_recipient)
    if token is None:
        return None
    base: dict[str, Any] = {
        "message_id": message_id,
        "sender": sender[:254],
        "via": via,
        "token": token[:80],
        "status": InboundMail.Status.IGNORED,
    }
    try:
        with transaction.atomic():
            if message_id and InboundMail.objects.filter(message_id=message_id).exists():
                return "duplicate"
            code, detail = _handle(msg, token, message_id)
            InboundMail.objects.create(**base, code=code, line=detail[:200])
    except IntegrityError:  # the same message handled at the same moment elsewhere
        return "duplicate"
    log.info("bounce %s from %s: %s", via, sender, code)
    return code


def _handle(msg: Message, token: str, message_id: str | None) -> tuple[str, str]:
    try:
        data = verp.read_token(token)
    except verp.BadBounceToken:
        return "bounce_forged", ""
    user = get_user_model().objects.filter(pk=data.user_id).select_related("profile").first()
    if user is None:
        return "bounce_no_user", ""
    if not user.email or not verp.address_tagged(data, user.email):
        return "bounce_old_address", ""
    report = dsn.report_read(msg)
    if report.kind is None:
        return "bounce_none", report.detail
    mail_event_record(
        Report(
            source="dsn" if report.form != "arf" else "arf",
            kind=report.kind,
            address=user.email,
            # One report per message and email: a DSN delivered twice counts once.
            event_id=f"{message_id or token}:{data.notification_id}",
            detail=report.detail,
            notification_id=data.notification_id,
            user=user,
        )
    )
    return _CODES[report.kind], report.detail
