"""The reply address of a turn email: ``turn+<token>@<INBOUND_EMAIL_DOMAIN>``.

The token binds the reply to one game, seat, user and position (``seq``, sent as the move's
``expected_seq``) until an expiry, and is signed with an HMAC of the site's secret key. It is
written in lowercase base32 (digits and letters, no padding) because mail systems may change the
case of an address's local part. A forged or altered token fails the HMAC; an old one its expiry.

A token has a ``kind``: ``ORDINARY`` (a turn email's, any email a player may move by) or
``RESIGN`` (the answer to a ``resign`` reply: only a ``resign`` reply to it leaves the game,
``games.inbox.receive``). The kind is one more byte under the HMAC, so an ordinary token cannot
be made into a confirming one; ordinary tokens are written as they always were (the kind byte
left out), so every address already sent stays good.

>>> t = make_token(game_id=7, seat=2, seq=41, user_id=3, expires=2_000_000_000, key=b"k")
>>> read_token(t, key=b"k", now=1_900_000_000)
ReplyToken(game_id=7, seat=2, seq=41, user_id=3, expires=2000000000, kind=0)
>>> c = make_token(game_id=7, seat=2, seq=41, user_id=3, expires=2_000_000_000, key=b"k",
...                kind=RESIGN)
>>> read_token(c, key=b"k", now=1_900_000_000).kind == RESIGN, len(c) > len(t)
(True, True)
>>> read_token(t.replace(t[-1], "a" if t[-1] != "a" else "b"), key=b"k", now=1)
Traceback (most recent call last):
...
games.inbox.tokens.BadToken: forged
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import struct
import time
from typing import NamedTuple

from django.conf import settings

_PACK = struct.Struct(">IBIII")  # game, seat, seq, user, expiry (seconds)
_KIND = struct.Struct(">B")  # after _PACK in a token of another kind than ORDINARY
#: The token of a turn email (or any other email a player moves by).
ORDINARY = 0
#: The token of "reply resign to this email to leave the game": it confirms a resignation only.
RESIGN = 1
#: How long a ``RESIGN`` token is good (the email that carries it says so).
RESIGN_CONFIRM_HOURS = 24
_MAC_BYTES = 10
#: ``turn+<token>@domain`` anywhere in a header (any case).
ADDRESS = re.compile(r"turn\+([a-z2-7]{20,80})@", re.IGNORECASE)


class BadToken(Exception):
    """``forged`` (not ours, or altered) or ``expired``."""


class ReplyToken(NamedTuple):
    game_id: int
    seat: int
    seq: int
    user_id: int
    expires: int
    kind: int = ORDINARY


def _key() -> bytes:
    return hashlib.sha256(b"powergrid.reply:" + settings.SECRET_KEY.encode()).digest()


def _b32(raw: bytes) -> str:
    return base64.b32encode(raw).decode().rstrip("=").lower()


def _unb32(text: str) -> bytes:
    text = text.upper()
    return base64.b32decode(text + "=" * (-len(text) % 8))


def make_token(
    *,
    game_id: int,
    seat: int,
    seq: int,
    user_id: int,
    expires: int,
    key: bytes | None = None,
    kind: int = ORDINARY,
) -> str:
    body = _PACK.pack(game_id, seat, seq, user_id, expires)
    if kind != ORDINARY:
        body += _KIND.pack(kind)
    mac = hmac.new(key or _key(), body, hashlib.sha256).digest()[:_MAC_BYTES]
    return _b32(body + mac)


def read_token(
    token: str, *, key: bytes | None = None, now: float | None = None, expired_ok: bool = False
) -> ReplyToken:
    """The token's contents, or ``BadToken`` (``expired_ok``: an expired one is returned, so
    its owner can be told it expired)."""
    try:
        raw = _unb32(token)
    except (ValueError, TypeError):
        raise BadToken("forged") from None
    size = len(raw) - _MAC_BYTES
    if size not in (_PACK.size, _PACK.size + _KIND.size) or _b32(raw) != token.lower():
        raise BadToken("forged")  # the wrong length, or spare bits set: not a token we wrote
    body, mac = raw[:size], raw[size:]
    want = hmac.new(key or _key(), body, hashlib.sha256).digest()[:_MAC_BYTES]
    if not hmac.compare_digest(mac, want):
        raise BadToken("forged")
    kind = _KIND.unpack(body[_PACK.size :])[0] if size > _PACK.size else ORDINARY
    if size > _PACK.size and kind == ORDINARY:
        raise BadToken("forged")  # one token, one spelling
    game_id, seat, seq, user_id, expires = _PACK.unpack(body[: _PACK.size])
    data = ReplyToken(game_id, seat, seq, user_id, expires, kind)
    if not expired_ok and data.expires < (time.time() if now is None else now):
        raise BadToken("expired")
    return data


def reply_address(
    *, game_id: int, seat: int, seq: int, user_id: int, hours: float, kind: int = ORDINARY
) -> str | None:
    """The Reply-To of a turn email, or of another ``kind``'s email (None when no inbound
    domain is configured)."""
    domain = settings.INBOUND_EMAIL_DOMAIN
    if not domain:
        return None
    expires = int(time.time() + hours * 3600)
    token = make_token(
        game_id=game_id, seat=seat, seq=seq, user_id=user_id, expires=expires, kind=kind
    )
    return f"turn+{token}@{domain}"
