"""The inbound mail service: a long-lived LMTP server (aiosmtpd) the MTA delivers the reply and
bounce addresses to (deploy/postfix-main.cf, ``manage.py lmtp_server``).

What it answers (LMTP: one answer per recipient after DATA):

- RCPT: 550 for an address that is neither a reply address we signed nor a bounce address of
  ours (no mail is accepted for nobody); 451 when the database cannot be reached (the MTA keeps
  the message and tries again).
- LHLO announces SMTPUTF8: a message with UTF-8 addresses or headers is taken as it came.
- DATA: 552 over ``INBOUND_MAX_BYTES`` (aiosmtpd's size limit, also announced as SIZE in LHLO);
  250 once the message is an ``InboundMail`` row committed (``intake_store``), then the worker's
  task is queued; 451 when the row could not be committed. A line may be longer than RFC 5322's
  998 octets, up to ``LINE_MAX_BYTES`` (``Service``).

The database work runs on a few threads of its own (Django's connections are per thread); the
event loop only speaks the protocol.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import Envelope, Session
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, close_old_connections

from games import queue
from games.inbox import intake

log = logging.getLogger("games.inbox")

_DB_AWAY = (OperationalError, InterfaceError)


def _ping() -> None:
    close_old_connections()
    intake.database_ping()


def _store(raw: bytes, recipient: str) -> intake.Stored:
    close_old_connections()
    return intake.intake_store(raw, recipient=recipient)


def _publish(row_id: int) -> None:
    try:
        queue.publish(queue.INBOUND_PROCESS, row_id)
    except Exception:  # the broker is away: the sweep hands the stored row later
        log.warning("inbound: task for stored message %s not queued; the sweep will", row_id)


class InboundHandler:
    """aiosmtpd's handler hooks (``handle_RCPT``, ``handle_DATA``)."""

    def __init__(self, threads: int = 4) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="lmtp-db")

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def handle_RCPT(
        self, server: Any, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if intake.address_kind(address) is None:
            return "550 5.1.1 No such recipient"
        if envelope.rcpt_tos:
            # One reply address a transaction: a message is stored for its one recipient, so a
            # second is deferred (the MTA delivers it in a transaction of its own), never
            # answered 250 without being stored (deploy/postfix/main.cf sets the limit to 1).
            return "452 4.5.3 One recipient per message, please"
        try:
            await self._run(_ping)
        except _DB_AWAY:
            log.warning("inbound: database unavailable at RCPT")
            return "451 4.3.0 Database unavailable, try again later"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:
        raw = return_path(envelope.mail_from) + (envelope.original_content or b"")
        recipients = envelope.rcpt_tos or [""]
        try:
            stored = await self._run(_store, raw, recipients[0])
        except (DatabaseError, InterfaceError):
            log.warning("inbound: message not stored (database), the MTA will retry")
            answer = "451 4.3.0 Database unavailable, try again later"
        else:
            if stored.new:
                await self._run(_publish, stored.row_id)
            answer = f"250 2.0.0 Stored as {stored.row_id}"
        # LMTP: one answer per accepted recipient (the message was stored once for all).
        return "\r\n".join([answer] * len(recipients))


def return_path(mail_from: object) -> bytes:
    """The ``Return-Path:`` field a final delivery adds (RFC 5321, 4.4): the envelope's sender.
    An empty one (``MAIL FROM:<>``: a bounce, an auto-reply) is never answered (RFC 5321,
    4.5.5), and the handler reads it there (``receive._automatic``).

    >>> return_path("")
    b'Return-Path: <>\\r\\n'
    >>> return_path("alice@example.com")
    b'Return-Path: <alice@example.com>\\r\\n'
    """
    sender = str(mail_from or "").replace("\x00", "").replace("\r", "").replace("\n", "")
    return b"Return-Path: <" + sender.strip("<>").encode("utf-8", "replace") + b">\r\n"


#: The longest line the service takes, its CRLF included: in DATA (a message's line) and as the
#: stream's buffer limit (a command line is still held to aiosmtpd's 512-octet command limit).
LINE_MAX_BYTES = 1024 * 1024


class Service(LMTP):
    """aiosmtpd's LMTP with a line as long as ``LINE_MAX_BYTES``. aiosmtpd holds every line to
    RFC 5321's 1,000 octets and answers a message with a longer one with a permanent 500 (its
    ``line_length_limit``, read when the stream is made, hence a class attribute here): the MTA
    then bounces the whole reply. Senders do write longer lines (an HTML part on one line, a
    long header; RFC 5322 says 998, but an MTA may pass on what it got), and nothing here needs
    them short: the bytes are stored as they came and the parser reads any length. Memory stays
    bounded: a line is buffered up to this limit, the message up to ``INBOUND_MAX_BYTES`` (552
    past it, as before)."""

    line_length_limit = LINE_MAX_BYTES


def make_server(handler: InboundHandler) -> LMTP:
    return Service(
        handler,
        data_size_limit=settings.INBOUND_MAX_BYTES,
        decode_data=False,
        # A reply from an address or with headers in UTF-8 (a Japanese mailbox) comes with
        # SMTPUTF8 from an MTA that has it on (Postfix's smtputf8_enable, the default): refused
        # here, Postfix would bounce it. The bytes are stored as they came; the parser reads them.
        enable_SMTPUTF8=True,
        hostname=settings.LMTP_HOSTNAME,
        ident="powergrid lmtp",
    )


async def serve(host: str, port: int, *, threads: int = 4) -> None:
    """Serve until cancelled."""
    handler = InboundHandler(threads)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: make_server(handler), host=host, port=port)
    log.info("lmtp service listening on %s:%s", host, port)
    try:
        async with server:
            await server.serve_forever()
    finally:
        handler.pool.shutdown(wait=True)
