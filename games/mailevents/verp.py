"""The bounce address of an email sent over SMTP: its envelope sender (``Return-Path``) is
``bounce+<notification>-<user>-<address tag>-<mac>@<BOUNCE_EMAIL_DOMAIN>`` (VERP: one return
address per recipient), so a delivery status notification names the email and the player it
was for, whatever the receiving system writes in it.

The address tag is a keyed hash of the recipient's address (not the address itself: nothing
personal is written in an envelope); the MAC over the other three, a keyed BLAKE2b (a MAC by
design; a third of an HMAC-SHA256's cost, paid on every email) with a key derived from the
site's secret key, makes a bounce address unforgeable: a report to an address we did not make
is ignored, and one for an address the player no longer has is recognised as such. Lowercase
hexadecimal and digits only, since mail systems may change the case of a local part.

>>> t = make_token(notification_id=12, user_id=3, address="Alice@Example.com", key=b"k")
>>> read_token(t, key=b"k")
BounceToken(notification_id=12, user_id=3, tag='...')
>>> address_tagged(read_token(t, key=b"k"), "alice@example.com", key=b"k")
True
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
from email.message import Message
from email.utils import getaddresses
from typing import NamedTuple

from django.conf import settings

#: ``bounce+<token>@`` anywhere in an address (any case).
ADDRESS = re.compile(r"bounce\+(\d{1,19}-\d{1,19}-[0-9a-f]{8}-[0-9a-f]{16})@", re.IGNORECASE)


class BadBounceToken(Exception):
    """Not a bounce address of ours (altered, or made with another key)."""


class BounceToken(NamedTuple):
    notification_id: int
    user_id: int
    tag: str

    def __repr__(self) -> str:
        return (
            f"BounceToken(notification_id={self.notification_id}, user_id={self.user_id}, "
            "tag='...')"
        )


@functools.lru_cache(maxsize=4)
def _key_of(secret: str) -> bytes:
    return hashlib.sha256(b"powergrid.bounce:" + secret.encode()).digest()


def _key() -> bytes:
    return _key_of(settings.SECRET_KEY)


def _tag(address: str, key: bytes) -> str:
    data = b"address:" + address.strip().lower().encode()
    return hashlib.blake2b(data, key=key, digest_size=4).hexdigest()


def _mac(notification_id: int, user_id: int, tag: str, key: bytes) -> str:
    msg = f"{notification_id}-{user_id}-{tag}".encode()
    return hashlib.blake2b(msg, key=key, digest_size=8).hexdigest()


def make_token(
    *, notification_id: int, user_id: int, address: str, key: bytes | None = None
) -> str:
    k = key or _key()
    tag = _tag(address, k)
    return f"{notification_id}-{user_id}-{tag}-{_mac(notification_id, user_id, tag, k)}"


def read_token(token: str, *, key: bytes | None = None) -> BounceToken:
    """The token's fields, or ``BadBounceToken``."""
    k = key or _key()
    try:
        nid_s, uid_s, tag, mac = token.lower().split("-")
        nid, uid = int(nid_s), int(uid_s)
    except ValueError as exc:
        raise BadBounceToken("malformed") from exc
    if not hmac.compare_digest(mac, _mac(nid, uid, tag, k)):
        raise BadBounceToken("forged")
    return BounceToken(nid, uid, tag)


def address_tagged(token: BounceToken, address: str, *, key: bytes | None = None) -> bool:
    """Whether the email the token was made for went to ``address``."""
    return hmac.compare_digest(token.tag, _tag(address, key or _key()))


def enabled() -> bool:
    """Bounce addresses are used when a domain is set and emails leave by SMTP (or the
    development mailbox): a provider's API sets its own and reports by webhook instead."""
    return bool(settings.BOUNCE_EMAIL_DOMAIN) and not settings.EMAIL_BACKEND.startswith("anymail.")


def bounce_address(*, notification_id: int, user_id: int, address: str) -> str | None:
    """The envelope sender for one outbox email, or None (``enabled``)."""
    if not enabled():
        return None
    token = make_token(notification_id=notification_id, user_id=user_id, address=address)
    return f"bounce+{token}@{settings.BOUNCE_EMAIL_DOMAIN}"


def find_token(msg: Message, envelope_recipient: str | None) -> str | None:
    """The bounce token a received message was addressed to: the envelope recipient first (the
    MTA's), then the headers receiving systems write it in."""
    fields = [envelope_recipient or ""]
    for name in ("To", "Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To"):
        fields += [str(v) for v in msg.get_all(name, [])]
    for _name, address in getaddresses(fields):
        m = ADDRESS.search(address + " ")
        if m is None and "@" not in address:
            m = ADDRESS.search(f"{address}@")
        if m:
            return m.group(1).lower()
    return None
