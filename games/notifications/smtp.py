"""The SMTP side of sending: one connection per worker process, reused across tasks (opened
again after ``IDLE_RECONNECT_SECONDS`` idle or when the server dropped it), and ``Sender``, which
sends built messages on a thread of its own while the caller builds the next ones."""

from __future__ import annotations

import contextlib
import logging
import queue
import smtplib
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.core import mail
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connections

from games.fastpath import wire
from games.models import Notification
from games.restore import journal

from .claiming import MARK_EVERY_SECONDS, RECHECK_GROUP, RECHECK_SECONDS, smtp_timeout

log = logging.getLogger(__name__)


# -- one SMTP connection per worker process, reused across tasks --------------------------------

_conn: BaseEmailBackend | None = None
_conn_used = 0.0
IDLE_RECONNECT_SECONDS = 20.0


def _is_smtp() -> bool:
    return settings.EMAIL_BACKEND.endswith("smtp.EmailBackend")


def _connection() -> BaseEmailBackend:
    global _conn, _conn_used
    if not _is_smtp():
        return mail.get_connection()  # file/locmem/anymail: opened and closed per send
    now = time.monotonic()
    if _conn is not None and now - _conn_used > IDLE_RECONNECT_SECONDS:
        connection_reset()
    if _conn is None:
        _conn = mail.get_connection(timeout=smtp_timeout())
        _conn.open()
    _conn_used = now
    return _conn


def connection_reset() -> None:
    global _conn
    if _conn is not None:
        with contextlib.suppress(Exception):
            _conn.close()
    _conn = None


def _send_one(message: EmailMessage, payload: tuple[str, list[str], bytes] | None) -> None:
    conn = _connection()
    smtp: smtplib.SMTP | None = getattr(conn, "connection", None)
    if payload is None or smtp is None:
        conn.send_messages([message])
    else:
        # The bytes written by ``wire`` (Django's backend would build them with the email
        # package); the same SMTP dialogue: MAIL, RCPT, DATA on the open connection.
        wire.sendmail(smtp, *payload)


def deliver(message: EmailMessage) -> None:
    payload = wire.smtp_payload(message) if _is_smtp() else None
    try:
        _send_one(message, payload)
    except (smtplib.SMTPServerDisconnected, ConnectionError) as exc:
        # A reused connection the server had dropped: nothing was sent on it. Once more, fresh.
        log.info("SMTP connection lost (%s); reconnecting", exc)
        connection_reset()
        _send_one(message, payload)
    except Exception:
        connection_reset()
        raise


class Sender:
    """Sends built messages on a thread of its own while the caller builds the next ones.

    An SMTP exchange is mostly waiting for the server's replies (MAIL, RCPT, DATA, the final 250),
    which releases the GIL: building email N+1 overlaps sending email N. Only this thread touches
    the SMTP connection while a batch runs; outcomes come back through ``done``.
    ``NOTIFY_SEND_THREAD=False`` sends inline instead.

    Just before sending, ``check`` (ids -> those not to send, with why: ``TAKEN``, ``PLAYED``)
    runs on the messages about to go, a few at a time (``RECHECK_GROUP``, again after
    ``RECHECK_SECONDS``); those come back with their reason instead of being sent. On the thread
    it reads over the thread's own database connection (closed when the thread ends): the
    caller's is busy building.
    """

    def __init__(
        self,
        threaded: bool,
        check: Callable[[list[int]], dict[int, BaseException]] = lambda ids: {},
    ) -> None:
        self.done: queue.SimpleQueue[tuple[Notification, BaseException | None]] = (
            queue.SimpleQueue()
        )
        self.check = check
        self.todo: queue.Queue[tuple[Notification, EmailMessage] | None] | None = None
        self.thread: threading.Thread | None = None
        if threaded:
            self.todo = queue.Queue(maxsize=16)
            self.thread = threading.Thread(target=self._run, name="notify-smtp", daemon=True)
            self.thread.start()

    def _send(self, n: Notification, message: EmailMessage) -> None:
        try:
            deliver(message)
        except Exception as exc:
            self.done.put((n, exc))
        else:
            journal.delivered(n, message)  # outside the database: after_restore reads it
            self.done.put((n, None))

    def _send_group(self, group: list[tuple[Notification, EmailMessage]]) -> None:
        stop: dict[int, BaseException] = {}
        checked_at = -RECHECK_SECONDS
        for i, (n, message) in enumerate(group):
            if time.monotonic() - checked_at >= RECHECK_SECONDS:
                stop = self.check([m.pk for m, _ in group[i:]])
                checked_at = time.monotonic()
            if n.pk in stop:
                self.done.put((n, stop[n.pk]))
            else:
                self._send(n, message)

    def _run(self) -> None:
        assert self.todo is not None
        try:
            last = False
            while not last and (item := self.todo.get()) is not None:
                group = [item]
                while len(group) < RECHECK_GROUP:
                    try:
                        more = self.todo.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        last = True
                        break
                    group.append(more)
                self._send_group(group)
        finally:
            connections.close_all()  # this thread's connections only

    def put(
        self, n: Notification, message: EmailMessage, tick: Callable[[], None] = lambda: None
    ) -> None:
        """Queue a message; while the queue is full (the SMTP server is slow), ``tick`` runs
        every ``MARK_EVERY_SECONDS`` so what was delivered meanwhile is marked."""
        if self.todo is None:
            self._send_group([(n, message)])
            return
        while True:
            try:
                self.todo.put((n, message), timeout=MARK_EVERY_SECONDS)
                return
            except queue.Full:
                tick()

    def close(self, tick: Callable[[], None] = lambda: None) -> None:
        """Wait for the last messages, running ``tick`` every ``MARK_EVERY_SECONDS``: a message
        the SMTP server is slow to accept must not keep the ones before it unmarked (a worker
        killed meanwhile would leave them to be sent again; found by scripts/season)."""
        if self.todo is not None and self.thread is not None:
            while True:
                try:
                    self.todo.put(None, timeout=MARK_EVERY_SECONDS)
                    break
                except queue.Full:
                    tick()
            while self.thread.is_alive():
                self.thread.join(MARK_EVERY_SECONDS)
                tick()

    def outcomes(self) -> list[tuple[Notification, BaseException | None]]:
        out = []
        while True:
            try:
                out.append(self.done.get_nowait())
            except queue.Empty:
                return out
