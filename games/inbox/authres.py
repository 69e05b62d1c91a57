"""What our MTA says of a message's sender: the ``Authentication-Results`` fields (RFC 8601) a
DMARC milter (deploy/postfix: OpenDKIM and OpenDMARC) adds on the inbound path.

The ``From`` line is written by the sender (``games.inbox.sender``); DMARC is the check that the
domain it names signed or sent the message. Only a field whose authserv-id is ours
(``INBOUND_AUTHSERV_ID``: the milter's ``AuthservID``) is read, and only a ``dmarc=fail`` in it
counts: a reply is refused then (``sender_not_authenticated``). Nothing is ever required to
pass: a sender's domain that publishes no DMARC policy reads ``none`` and the reply is taken as
before. So a field anyone adds gains them nothing: one with another authserv-id is not read,
one forged with ours can only say ``fail`` of the forger's own message (a forged ``pass`` is
never looked for). With the setting empty nothing is read.

>>> dmarc_failed(["mx.pg.example; dkim=none; dmarc=fail (p=reject) header.from=x.test"],
...              "mx.pg.example")
True
>>> dmarc_failed(["other.example; dmarc=fail header.from=x.test"], "mx.pg.example")
False
>>> dmarc_failed(['MX.PG.example 1; spf=pass smtp.mailfrom=x.test; DMARC = pass'], "mx.pg.example")
False
>>> dmarc_failed(['mx.pg.example (our "mx"; dmarc=fail); dmarc=none reason="a; dmarc=fail"'],
...              "mx.pg.example")
False
>>> dmarc_failed(["mx.pg.example; dmarc=fail"], "")
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from email.message import Message

from django.conf import settings

_METHOD = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9_.-]*)\s*(?:/\s*\d+\s*)?=\s*([A-Za-z0-9_-]+)")


def _uncommented(value: str) -> str:
    """``value`` without its comments (nested parentheses, RFC 5322 ``CFWS``), quoted strings
    kept whole (a ``;`` or ``(`` inside quotes is text), folding undone."""
    out: list[str] = []
    depth, quoted, escaped = 0, False, False
    for ch in value.replace("\r", " ").replace("\n", " "):
        if escaped:
            escaped = False
            if depth == 0:
                out.append(ch)
            continue
        if ch == "\\" and (quoted or depth):
            escaped = True
            if depth == 0:
                out.append(ch)
            continue
        if quoted:
            quoted = ch != '"'
            out.append(ch)
        elif ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif depth == 0:
            quoted = ch == '"'
            out.append(ch)
    return "".join(out)


def _split(value: str) -> list[str]:
    """The field's parts between ``;`` outside quoted strings."""
    parts: list[str] = []
    current: list[str] = []
    quoted, escaped = False, False
    for ch in value:
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return parts


def results(value: str) -> tuple[str, dict[str, str]]:
    """One field's authserv-id (lower-cased, unquoted) and its methods' results (``{"dmarc":
    "fail", ...}``, lower-cased; a method named twice: any ``fail`` wins).

    >>> results('"mx.example" 1; dkim=pass header.d=x.test; dmarc=fail; dkim/1=fail')
    ('mx.example', {'dkim': 'fail', 'dmarc': 'fail'})
    >>> results("mx.example; none")
    ('mx.example', {})
    """
    head, *infos = _split(_uncommented(value))
    words = head.split()
    serv = words[0].strip('"').lower() if words else ""
    found: dict[str, str] = {}
    for info in infos:
        m = _METHOD.match(info)
        if m is None:
            continue
        method, result = m.group(1).lower(), m.group(2).lower()
        if found.get(method) != "fail":
            found[method] = result
    return serv, found


def dmarc_failed(values: Iterable[str], authserv_id: str) -> bool:
    """Whether a field of ``values`` from ``authserv_id`` (ours) says ``dmarc=fail``; never
    when ``authserv_id`` is empty."""
    ours = authserv_id.strip().lower()
    if not ours:
        return False
    for value in values:
        serv, found = results(value)
        if serv == ours and found.get("dmarc") == "fail":
            return True
    return False


def message_dmarc_failed(msg: Message) -> bool:
    """Whether our MTA found ``msg``'s ``From`` forged (see the module's docstring)."""
    authserv_id = settings.INBOUND_AUTHSERV_ID
    if not authserv_id.strip():
        return False
    values = [
        str(v).encode("ascii", "surrogateescape").decode("utf-8", "replace")
        for name, v in msg.raw_items()
        if name.strip().lower() == "authentication-results"
    ]
    return dmarc_failed(values, authserv_id)
