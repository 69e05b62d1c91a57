"""Who a message says it is from: the one place the ``From`` field of a received message is read
(the reply handler, its safety net, the bounce reader).

``From`` is written by whoever sends the message: reading it says which account the reply
claims to be, never who wrote it (that is the reply address's token, and, where the MTA checks
it, DMARC: ``games.inbox.authres``). Read loosely it can say two things at once, and the check
that the reply comes from the player's own address (``accounts.senders.speaks_for``) would read
the one that suits the writer. So it is read strictly, and anything doubtful reads as no sender
at all, as a missing ``From`` does (the reply handler refuses it, code ``no_sender``, telling
the token's account when the token is good and ignoring it otherwise):

* exactly one ``From`` field, holding exactly one mailbox (no list, no group syntax, RFC 5322
  3.6.2 allows one mailbox in ``From`` only with a ``Sender``, which we do not read);
* parsed by the standard library's RFC 5322 parser (``email.headerregistry``), and refused
  whenever it reports the field invalid: Python 3.11's ``parseaddr`` reads
  ``alice@x)<m@y>`` and ``alice@x, m@y`` as ``alice@x`` (CVE-2023-27043), and the registry's
  parser also returns ``alice@x`` for the first, only with a defect noted;
* 8-bit bytes (a UTF-8 address, RFC 6532, which the LMTP service takes with SMTPUTF8) read as
  UTF-8: the compat32 parser keeps them as escapes, which ``str()`` turns into U+FFFD;
* lower-cased and stripped, as ``speaks_for`` compares and the log stores.

>>> from email import message_from_bytes
>>> def read(field: bytes) -> str:
...     return message_sender(message_from_bytes(field + b"\\r\\nTo: t@x.test\\r\\n\\r\\nhi"))
>>> read(b"From: Alice <Alice@Players.Test>"), read(b"From: alice@players.test (home)")
('alice@players.test', 'alice@players.test')
>>> read(b"From: alice@players.test)<mallory@evil.test>")
''
>>> read(b"From: alice@players.test, mallory@evil.test"), read(b"From: g: alice@players.test;")
('', '')
>>> read(b"From: alice@players.test\\r\\nFrom: mallory@evil.test")
''
>>> read(b"From: alice@players.test\\r\\nFrom : mallory@evil.test")
''
>>> read(b"From : mallory@evil.test\\r\\nFrom: alice@players.test")
''
>>> read(b'From: "alice@players.test" <mallory@evil.test>')
'mallory@evil.test'
>>> read(b"From: =?utf-8?q?alice=40players.test?=")
''
>>> read("From: 太郎 <太郎@例え.jp>".encode()), read("From: ｂob@x.test".encode())
('太郎@例え.jp', 'ｂob@x.test')
>>> read(b"From: b\\xffob@x.test")
'b\\ufffdob@x.test'
"""

from __future__ import annotations

import re
from email.errors import (
    MisplacedEnvelopeHeaderDefect,
    NonASCIILocalPartDefect,
    ObsoleteHeaderDefect,
)
from email.headerregistry import HeaderRegistry
from email.message import Message

_REGISTRY = HeaderRegistry()
_FOLD = re.compile(r"\r?\n(?=[ \t])")
#: Defects that do not make a field ambiguous: an old but unambiguous form (a period in a display
#: name, ``J. Smith <j@x>``) and a UTF-8 local part (RFC 6532, allowed with SMTPUTF8).
_HARMLESS = (ObsoleteHeaderDefect, NonASCIILocalPartDefect)


def _text(value: str) -> str:
    """A raw field value as text: escaped 8-bit bytes read as UTF-8 (U+FFFD where they are not
    UTF-8), folding undone."""
    raw = value.encode("ascii", "surrogateescape")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
    return _FOLD.sub("", text)


def address_read(value: str) -> str:
    """The one mailbox a ``From`` value names, lower-cased; "" when it names none, several, a
    group, or cannot be read without doubt (see the module's docstring).

    >>> address_read("Alice <alice@players.test>"), address_read("alice@players.test <m@y.test>")
    ('alice@players.test', '')
    """
    try:
        field = _REGISTRY("From", value)
        groups = field.groups  # type: ignore[attr-defined]
    except Exception:  # the parser's own failure on odd input: no sender
        return ""
    if any(not isinstance(d, _HARMLESS) for d in field.defects):
        return ""
    if len(groups) != 1 or groups[0].display_name is not None or len(groups[0].addresses) != 1:
        return ""
    address = groups[0].addresses[0]
    local, domain = str(address.username), str(address.domain)
    if not local or not domain:
        return ""
    return str(address.addr_spec).strip().lower()


def _from_hidden(msg: Message) -> bool:
    """Whether the parser dropped a line that MTAs and DMARC read as a ``From`` field: Python's
    parser takes any header line beginning ``From `` for an mbox envelope line (``From :``, a
    space before the colon, is RFC 5322's obsolete syntax for a From field), keeps the first
    line's as the "unix from" and drops a later one with a defect. A message carrying two From
    fields that way would be read as from the one left (an outsider's find: DMARC judges the
    other)."""
    if any(isinstance(d, MisplacedEnvelopeHeaderDefect) for d in msg.defects):
        return True
    return re.match(r"From[ \t]*:", msg.get_unixfrom() or "") is not None


def message_sender(msg: Message) -> str:
    """The address ``msg``'s ``From`` names, or "" (see the module's docstring). ``msg`` is
    parsed with the compat32 policy (the handler's): its raw field values are read here."""
    values = [v for name, v in msg.raw_items() if name.strip().lower() == "from"]
    if len(values) != 1 or _from_hidden(msg):
        return ""
    return address_read(_text(str(values[0])))
