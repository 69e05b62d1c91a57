"""The development mailbox: ``/dev/mailbox/`` lists the emails the file backend wrote to
``var/mail/`` (``EMAIL_DIR``) and shows each one (text and HTML). Only with ``DEBUG``: otherwise
every page is a 404.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games import numbers

# Django's file backend writes each message's bytes, then this line (its own encoding: UTF-8).
SEPARATOR = ("\n" + "-" * 79 + "\n").encode()
NAME = re.compile(r"^[\w.-]+\.log$")


@dataclass
class Mail:
    key: str
    subject: str
    to: str
    sender: str
    date: str
    headers: list[tuple[str, str]]
    text: str
    html: str


def _dir() -> Path:
    return Path(getattr(settings, "EMAIL_FILE_PATH", None) or settings.EMAIL_DIR)


def _parse(raw: bytes, key: str) -> Mail:
    """One stored message, parsed from its bytes: a body sent as 8-bit UTF-8 (every Japanese
    email) parsed from a ``str`` instead comes back from ``get_content()`` as ``\\u3055``
    escapes (the email package encodes such a payload with ``raw-unicode-escape``)."""
    msg: Any = email.message_from_bytes(raw, policy=email.policy.default)
    text = html = ""
    for part in msg.walk() if msg.is_multipart() else [msg]:
        ctype = part.get_content_type()
        if ctype == "text/plain" and not text:
            text = part.get_content()
        elif ctype == "text/html" and not html:
            html = part.get_content()
    return Mail(
        key=key,
        subject=str(msg.get("Subject", "")),
        to=str(msg.get("To", "")),
        sender=str(msg.get("From", "")),
        date=str(msg.get("Date", "")),
        headers=[(k, str(v)) for k, v in msg.items()],
        text=text,
        html=html,
    )


def _chunks(path: Path) -> list[bytes]:
    """The messages of one file the backend wrote (a connection's messages share a file)."""
    return [c for c in path.read_bytes().split(SEPARATOR) if c.strip()]


def mailbox_list(limit: int = 200) -> list[Mail]:
    folder = _dir()
    if not folder.is_dir():
        return []
    files = sorted(
        (p for p in folder.iterdir() if NAME.match(p.name)),
        key=lambda p: (p.stat().st_mtime, p.name),
        reverse=True,
    )
    out: list[Mail] = []
    for path in files:
        chunks = _chunks(path)
        for i in reversed(range(len(chunks))):
            out.append(_parse(chunks[i], f"{path.name}:{i}"))
            if len(out) >= limit:
                return out
    return out


def mailbox_get(key: str) -> Mail:
    name, _, index = key.rpartition(":")
    try:  # games.numbers: ASCII digits, bounded (int() of 5,000 digits raises)
        i = numbers.from_text(index, field="index", low=0, high=numbers.INT32_MAX)
    except numbers.BadNumber:
        raise Http404 from None
    if not NAME.match(name):
        raise Http404
    path = _dir() / name
    if not path.is_file():
        raise Http404
    chunks = _chunks(path)
    if i >= len(chunks):
        raise Http404
    return _parse(chunks[i], key)


#: A web address in an email's text: http(s) up to the next space or closing bracket/quote.
URL = re.compile(r"https?://[^\s<>\"'()]+")


def linkify(text: str) -> SafeString:
    """The text part escaped, its http(s) addresses made links (the one-tap links and the
    login links are then a click away, as in a mail client). Escaped first, piece by piece:
    nothing of the email's text is ever markup."""
    out: list[str] = []
    last = 0
    for m in URL.finditer(text):
        url = m.group(0).rstrip(".,;:!?")
        end = m.start() + len(url)
        out.append(escape(text[last : m.start()]))
        out.append(format_html('<a href="{}" rel="noreferrer">{}</a>', url, url))
        last = end
    out.append(escape(text[last:]))
    return mark_safe("".join(out))


def _debug_only() -> None:
    if not settings.DEBUG:
        raise Http404


def mailbox_index(request: HttpRequest) -> HttpResponse:
    _debug_only()
    return render(request, "emails/dev_mailbox.html", {"mails": mailbox_list(), "folder": _dir()})


def mailbox_detail(request: HttpRequest, key: str) -> HttpResponse:
    _debug_only()
    mail = mailbox_get(key)
    if request.GET.get("part") == "html":
        # Shown inside a sandboxed iframe on the detail page.
        html = mail.html or format_html("<p>{}</p>", gettext("(no HTML part)"))
        # The charset named: an email's HTML need not carry a <meta charset> of its own.
        response = HttpResponse(html, content_type="text/html; charset=utf-8")
        response["Content-Security-Policy"] = (
            "sandbox; default-src 'none'; style-src 'unsafe-inline'"
        )
        response["X-Frame-Options"] = "SAMEORIGIN"
        return response
    reply_to = dict(mail.headers).get("Reply-To", "")
    return render(
        request,
        "emails/dev_mailbox_detail.html",
        {"mail": mail, "reply_to": reply_to, "text": linkify(mail.text)},
    )
