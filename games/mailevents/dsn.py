"""Reading what a receiving mail system sends back: delivery status notifications (RFC 3464) and
complaint reports (ARF, RFC 5965), with the standard library's ``email`` package.

A DSN is ``multipart/report; report-type=delivery-status`` whose ``message/delivery-status``
part (``message/global-delivery-status``, RFC 6533, for an internationalized address; either
may come base64- or quoted-printable-encoded) is a block of per-message fields, then one block
per recipient (``Final-Recipient``, ``Action``, ``Status``, ``Diagnostic-Code``). What a
recipient's block means here (``recipient_kind``):

  * ``Action: failed`` with a permanent status (``5.x.x``) about the address itself - its
    mailbox or domain does not exist or takes no mail (``5.1.x``, ``5.2.1``, ``5.4.4``): a
    **hard bounce**;
  * any other ``failed``: the address was right but the message was refused or the sender gave
    up (a full mailbox ``5.2.2``/``4.2.2``, a policy block ``5.7.x``, retries expired ``4.x.x``): a
    **soft bounce**;
  * ``delayed``, ``delivered``, ``relayed``, ``expanded``: not a failure, nothing to do.

A ``report-type=feedback-report`` (a mailbox provider's feedback loop) whose
``Feedback-Type`` is ``abuse`` (or absent) is a **complaint**. A message of neither kind from a
mail system (``MAILER-DAEMON``, ``postmaster``, an empty ``Return-Path``) is a bounce in a format
of its own: counted as soft, since what went wrong cannot be read. Anything else (an
out-of-office reply sent to the return address) is no report at all.

>>> recipient_kind("failed", "5.1.1")
'hard_bounce'
>>> recipient_kind("failed", "5.2.2"), recipient_kind("failed", "4.4.7")
('soft_bounce', 'soft_bounce')
>>> recipient_kind("delayed", "4.4.1") is None
True
"""

from __future__ import annotations

import binascii
import quopri
import re
from dataclasses import dataclass, field
from email.header import Header, decode_header
from email.message import Message
from email.parser import Parser
from email.policy import compat32
from email.utils import parseaddr

from games.inbox.sender import message_sender

HARD = "hard_bounce"
SOFT = "soft_bounce"
COMPLAINT = "complaint"

_STATUS = re.compile(r"^\s*([245])\.(\d{1,3})\.(\d{1,3})")
#: Permanent statuses about the address rather than the message (RFC 3463): bad mailbox or
#: domain (X.1.*), mailbox disabled (X.2.1), no route to the domain (X.4.4).
_ADDRESS_GONE = re.compile(r"^5\.(1\.\d{1,3}|2\.1|4\.4)$")


@dataclass(frozen=True)
class RecipientStatus:
    recipient: str
    action: str
    status: str
    diagnostic: str

    @property
    def kind(self) -> str | None:
        return recipient_kind(self.action, self.status)


@dataclass
class Report:
    """What a received report says: its form (``dsn``, ``arf`` or ``other``), each recipient's
    status (a DSN), and the kind of event it is (None: no failure)."""

    form: str
    kind: str | None
    recipients: list[RecipientStatus] = field(default_factory=list)
    detail: str = ""


def recipient_kind(action: str, status: str) -> str | None:
    """A DSN recipient block's meaning (see the module)."""
    if action.strip().lower() != "failed":
        return None
    m = _STATUS.match(status or "")
    if m is None:
        return SOFT
    code = f"{m.group(1)}.{int(m.group(2))}.{int(m.group(3))}"
    return HARD if _ADDRESS_GONE.match(code) else SOFT


def _written(block: Message) -> bytes:
    """A block as it came (bytes: UTF-8 stays UTF-8). A block with a body is one whose fields
    the parser stopped reading at a line that is none (the rest of a quoted-printable line
    after its soft break): no blank line was there, so none is put back."""
    data = block.as_bytes()
    if block.get_payload():
        head, _sep, body = data.partition(b"\n\n")
        data = head + b"\n" + body
    return data


def _blocks(part: Message) -> list[Message]:
    """The header blocks of a status part: as the email package split them, or read here from
    the part's text when it did not split them right: a part sent base64- or quoted-printable-
    encoded (parsed as if it were not), or a ``message/global-delivery-status`` part (parsed as
    one message: the first block its headers, the others its body)."""
    payload = part.get_payload()
    transfer = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    split = part.get_content_type() == "message/delivery-status"
    if isinstance(payload, list) and split and transfer not in ("base64", "quoted-printable"):
        return [b for b in payload if isinstance(b, Message)]
    if isinstance(payload, list) and transfer == "base64":
        # The parser took the encoded text for the bodies of header-less blocks.
        encoded = "".join(
            str(b.get_payload())
            for b in payload
            if isinstance(b, Message) and isinstance(b.get_payload(), str)
        )
        text = binascii.a2b_base64(encoded.encode("ascii", "ignore")).decode("utf-8", "replace")
    elif isinstance(payload, list):
        # The blocks as the parser read them, written back (as the bytes received: UTF-8 in a
        # global part) and decoded (a soft line break or =XX escape may fall inside a field).
        written = b"\n\n".join(_written(b) for b in payload if isinstance(b, Message))
        if transfer == "quoted-printable":
            written = quopri.decodestring(written)
        text = written.decode("utf-8", "replace")
    else:
        raw = part.get_payload(decode=True)
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(payload)
    chunks = re.split(r"\r?\n[ \t]*\r?\n", text.strip())
    return [Parser(policy=compat32).parsestr(c, headersonly=True) for c in chunks if c.strip()]


def _address(value: str) -> str:
    """``rfc822; alice@example.com`` -> ``alice@example.com``."""
    _type, _sep, rest = value.partition(";")
    return parseaddr(rest.strip() if _sep else value.strip())[1].strip().lower()


def _clean(value: object, limit: int = 300) -> str:
    """One line of a report's text: whitespace folded, no NUL (an encoded part may carry one;
    PostgreSQL stores none), and UTF-8 read as such (the parser keeps 8-bit bytes of a field
    as escapes; a mail system's diagnostic is often in its own language)."""
    if isinstance(value, Header):  # a field with 8-bit bytes: its bytes, read as UTF-8
        text = "".join(
            b.decode("utf-8", "replace") if isinstance(b, bytes) else b
            for b, _charset in decode_header(value)
        )
    else:
        text = str(value or "")
    return " ".join(text.replace("\x00", "").split())[:limit]


#: The status part of a DSN: RFC 3464's, and RFC 6533's for a message to or from an
#: internationalized address (Postfix and Exchange send it then), whose fields may be UTF-8.
_STATUS_PARTS = ("message/delivery-status", "message/global-delivery-status")


def _dsn(msg: Message) -> Report | None:
    part = next((p for p in msg.walk() if p.get_content_type() in _STATUS_PARTS), None)
    if part is None:
        return None
    blocks = _blocks(part)
    recipients = [
        RecipientStatus(
            recipient=_address(_clean(b.get("Final-Recipient") or b.get("Original-Recipient", ""))),
            action=_clean(b.get("Action", "")).lower(),
            status=_clean(b.get("Status", ""), 32),
            diagnostic=_clean(b.get("Diagnostic-Code", "")),
        )
        for b in blocks
        if b.get("Action") is not None
    ]
    kinds = [r.kind for r in recipients]
    kind = HARD if HARD in kinds else SOFT if SOFT in kinds else None
    failed = next((r for r in recipients if r.kind == kind), None) if kind else None
    detail = f"{failed.status} {failed.diagnostic}".strip() if failed else ""
    return Report("dsn", kind, recipients, detail[:500])


def _arf(msg: Message) -> Report | None:
    part = next((p for p in msg.walk() if p.get_content_type() == "message/feedback-report"), None)
    if part is None:
        return None
    blocks = _blocks(part)
    fields = blocks[0] if blocks else Message()
    feedback = _clean(fields.get("Feedback-Type", "abuse"), 32).lower()
    kind = COMPLAINT if feedback in ("abuse", "fraud", "") else None
    return Report("arf", kind, [], f"feedback-type {feedback}")


def _from_mail_system(msg: Message) -> bool:
    sender = message_sender(msg)
    local = sender.split("@", 1)[0]
    return local in ("mailer-daemon", "postmaster") or str(msg.get("Return-Path", "")) == "<>"


def report_read(msg: Message) -> Report:
    """What ``msg`` (sent to a bounce address) reports."""
    report = None
    if msg.get_content_type() == "multipart/report" or msg.is_multipart():
        try:
            report = _dsn(msg) or _arf(msg)
        except (ValueError, LookupError, TypeError, AttributeError, binascii.Error):
            report = None
    if report is not None:
        return report
    if _from_mail_system(msg):
        subject = _clean(msg.get("Subject", ""), 200)
        return Report("other", SOFT, [], f"unreadable bounce: {subject}")
    return Report("other", None, [], "")
