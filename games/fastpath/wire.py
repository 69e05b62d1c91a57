"""An email's bytes for SMTP, written directly instead of through Python's ``email`` package.

Django's SMTP backend turns each ``EmailMultiAlternatives`` into bytes with
``message().as_bytes()`` (a tree of ``email.mime`` objects, the header folding of
``email.header``, a generator that compiles a regular expression per message to check its
boundary) and parses the addresses again with ``email._header_value_parser``: about a third of a
worker's CPU per turn email. Our emails are all the same shape (a text body and one HTML
alternative, UTF-8, a few ASCII headers), which this module writes in a few string operations.

``smtp_payload(message)`` returns ``(envelope sender, envelope recipients, bytes)`` - the
arguments of ``smtplib.SMTP.sendmail``, which does the SMTP dot-stuffing - or ``None`` when the
message is not of that shape (attachments, Cc/Bcc/Reply-To, another charset, a line longer than
RFC 5322's 998 octets that needs quoted-printable, a header too long to write unfolded): the
caller then sends it through Django's backend, as before. The result means what Django's would
(the same headers and values, the same parts, decoded); only the boundary and the folding of
long headers differ. ``tests/games/notifications/test_wire.py`` parses both and compares them.
"""

from __future__ import annotations

import functools
import random
import re
import smtplib
import sys
from email.header import Header
from typing import Any

from django.conf import settings
from django.core.mail import BadHeaderError
from django.core.mail.message import sanitize_address

LINE_LIMIT = 998  # RFC 5322 2.1.1, octets without the CRLF
FOLD_AT = 78  # RFC 5322's SHOULD for header lines: longer non-ASCII / subject lines are folded
_NEWLINES = re.compile(rb"\r\n|\r|\n")
# An address Django's sanitize_address returns unchanged: ASCII local part and domain, no
# display name, no quoting, no comments.
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+\Z")
_SKIP = frozenset({"to", "cc", "reply-to"})


@functools.lru_cache(maxsize=64)
def _sanitized(address: str, encoding: str) -> str:
    return str(sanitize_address(address, encoding))


def envelope_address(address: str, encoding: str = "utf-8") -> str:
    """What Django's SMTP backend passes to ``sendmail`` for ``address``."""
    if _PLAIN_ADDRESS.match(address):
        return address
    return _sanitized(address, encoding)


def _header(name: str, raw: object, encoding: str) -> bytes | None:
    """One header line (with its CRLF) as Django's ``forbid_multi_line_headers`` would set it."""
    value = str(raw)
    if "\n" in value or "\r" in value:
        raise BadHeaderError(f"Header values can't contain newlines (got {value!r} for {name!r})")
    if value.isascii():
        if name.lower() == "subject" and len(name) + 2 + len(value) > FOLD_AT:
            value = Header(value, header_name=name).encode(linesep="\r\n")
    elif name.lower() in ("from", "to", "cc", "reply-to", "sender"):
        return None  # non-ASCII addresses: Django's way
    else:
        value = Header(value, encoding, header_name=name).encode(linesep="\r\n")
    line = f"{name}: {value}\r\n".encode("ascii")
    if max(len(x) for x in line.split(b"\r\n")) > LINE_LIMIT:
        return None
    return line


def _body(text: str) -> tuple[bytes, str] | None:
    """The part's bytes with CRLF line ends, and its transfer encoding; None if a line is too
    long (Django then uses quoted-printable)."""
    data = _NEWLINES.sub(b"\r\n", text.encode("utf-8", errors="surrogateescape"))
    if len(data) > LINE_LIMIT and max(map(len, data.split(b"\r\n"))) > LINE_LIMIT:
        return None
    return data, ("7bit" if data.isascii() else "8bit")


def _boundary(parts: list[bytes]) -> bytes:
    while True:
        b = f"==============={random.randrange(sys.maxsize):019d}==".encode("ascii")
        if not any(b in p for p in parts):
            return b


def smtp_payload(message: Any) -> tuple[str, list[str], bytes] | None:
    """``(from, recipients, data)`` for ``smtplib.SMTP.sendmail``, or None (see the module)."""
    encoding = message.encoding or settings.DEFAULT_CHARSET
    if (
        encoding.lower().replace("_", "-") != "utf-8"
        or message.attachments
        or message.cc
        or message.bcc
        or message.reply_to
        or message.content_subtype != "plain"
        or getattr(message, "alternative_subtype", "alternative") != "alternative"
        or len(getattr(message, "alternatives", ())) != 1
        or message.alternatives[0][1] != "text/html"
        or not message.body
    ):
        return None
    recipients = message.recipients()
    if not recipients:
        return None
    text = _body(message.body)
    html = _body(message.alternatives[0][0])
    if text is None or html is None:
        return None
    names = {k.lower() for k in message.extra_headers}
    if names & _SKIP or "date" not in names or "message-id" not in names:
        # Address headers overridden, or a Date / Message-ID left to Django (ours always set
        # both: a stable Message-ID): Django's way.
        return None
    # A From header of its own (the envelope sender, ``from_email``, is then a bounce address),
    # as Django writes it: the header from ``extra_headers``, the envelope from ``from_email``.
    shown_from = message.extra_headers.get("From", message.from_email)
    headers = [
        _header("Subject", message.subject, encoding),
        _header("From", shown_from, encoding),
        _header("To", ", ".join(str(v) for v in message.to), encoding) if message.to else b"",
    ]
    headers += [
        _header(k, v, encoding) for k, v in message.extra_headers.items() if k.lower() != "from"
    ]
    if any(h is None for h in headers):
        return None
    header_bytes = [h for h in headers if h is not None]
    boundary = _boundary([text[0], html[0]])
    out = [
        b'Content-Type: multipart/alternative;\r\n boundary="' + boundary + b'"\r\n',
        b"MIME-Version: 1.0\r\n",
        *header_bytes,
        b"\r\n",
    ]
    for (data, cte), subtype in ((text, b"plain"), (html, b"html")):
        out += [
            b"--" + boundary + b"\r\n",
            b"Content-Type: text/" + subtype + b'; charset="utf-8"\r\n',
            b"MIME-Version: 1.0\r\n",
            b"Content-Transfer-Encoding: " + cte.encode("ascii") + b"\r\n\r\n",
            data,
            b"\r\n",
        ]
    out.append(b"--" + boundary + b"--\r\n")
    sender = envelope_address(message.from_email, encoding)
    return sender, [envelope_address(r, encoding) for r in recipients], b"".join(out)


@functools.lru_cache(maxsize=256)
def _quoted(address: str) -> str:
    return smtplib.quoteaddr(address)


def sendmail(smtp: Any, sender: str, recipients: list[str], data: bytes) -> None:
    """``smtp.sendmail(sender, recipients, data)`` for bytes already CRLF-terminated, without
    parsing the same envelope addresses again for every message (``smtplib`` runs each through
    ``email.utils.parseaddr``): the same commands, replies and exceptions otherwise (a 421 closes
    the connection; another refusal resets the transaction; refused recipients among accepted
    ones are ignored, as Django's backend ignores ``sendmail``'s return value).

    Where the server offers PIPELINING (RFC 2920; Postfix, Exim and the big providers do), MAIL,
    the RCPTs and DATA go out in one write and their replies are read after it: two round trips a
    message instead of three or more, which is most of what a provider across the internet costs
    per email."""
    smtp.ehlo_or_helo_if_needed()
    options = f" size={len(data)}" if smtp.does_esmtp and smtp.has_extn("size") else ""
    if smtp.does_esmtp and smtp.has_extn("pipelining"):
        _sendmail_pipelined(smtp, sender, recipients, data, options)
        return
    smtp.putcmd("mail", f"FROM:{_quoted(sender)}{options}")
    code, resp = smtp.getreply()
    if code != 250:
        _refused(smtp, code)
        raise smtplib.SMTPSenderRefused(code, resp, sender)
    refused: dict[str, tuple[int, bytes]] = {}
    for r in recipients:
        smtp.putcmd("rcpt", f"TO:{_quoted(r)}")
        _rcpt_reply(smtp, r, refused)
    if len(refused) == len(recipients):
        smtp._rset()
        raise smtplib.SMTPRecipientsRefused(refused)
    code, resp = smtp.data(data)
    if code != 250:
        _refused(smtp, code)
        raise smtplib.SMTPDataError(code, resp)


def _rcpt_reply(smtp: smtplib.SMTP, recipient: str, refused: dict[str, tuple[int, bytes]]) -> None:
    """Read one RCPT's reply: a refusal is noted in ``refused``; a 421 ends the connection."""
    code, resp = smtp.getreply()
    if code not in (250, 251):
        refused[recipient] = (code, resp)
    if code == 421:
        smtp.close()
        raise smtplib.SMTPRecipientsRefused(refused)


def _refused(smtp: Any, code: int) -> None:
    """After a refusal: a 421 means the server is closing; anything else resets the transaction."""
    if code == 421:
        smtp.close()
    else:
        smtp._rset()


_LEADING_DOT = re.compile(rb"^\.", re.MULTILINE)


def _sendmail_pipelined(
    smtp: smtplib.SMTP, sender: str, recipients: list[str], data: bytes, options: str
) -> None:
    """One write of MAIL, RCPT... and DATA, their replies in order, then the message (RFC 2920)."""
    commands = [f"MAIL FROM:{_quoted(sender)}{options}\r\n"]
    commands += [f"RCPT TO:{_quoted(r)}\r\n" for r in recipients]
    commands.append("DATA\r\n")
    smtp.send("".join(commands))
    mail_code, mail_resp = smtp.getreply()
    if mail_code == 421:
        smtp.close()
        raise smtplib.SMTPSenderRefused(mail_code, mail_resp, sender)
    refused: dict[str, tuple[int, bytes]] = {}
    for r in recipients:
        _rcpt_reply(smtp, r, refused)
    code, resp = smtp.getreply()  # DATA's
    nothing_to_send = mail_code != 250 or len(refused) == len(recipients)
    if code == 354 and nothing_to_send:
        # A server should refuse DATA without a valid recipient; one that accepts it gets an
        # empty message ended at once, which it cannot deliver to nobody, then RSET.
        smtp.send(b".\r\n")
        smtp.getreply()
    if mail_code != 250:
        _refused(smtp, code if code == 421 else mail_code)
        raise smtplib.SMTPSenderRefused(mail_code, mail_resp, sender)
    if len(refused) == len(recipients):
        _refused(smtp, code if code == 421 else 550)
        raise smtplib.SMTPRecipientsRefused(refused)
    if code != 354:
        _refused(smtp, code)
        raise smtplib.SMTPDataError(code, resp)
    body = _LEADING_DOT.sub(b"..", data)
    if not body.endswith(b"\r\n"):
        body += b"\r\n"
    smtp.send(body + b".\r\n")
    code, resp = smtp.getreply()
    if code != 250:
        _refused(smtp, code)
        raise smtplib.SMTPDataError(code, resp)
