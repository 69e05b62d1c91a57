"""``GET /api/v1/stream/``: server-sent events of your games (or of one game you watch).

    curl -N -H 'Authorization: Bearer <token>' https://example.org/api/v1/stream/
    curl -N https://example.org/api/v1/stream/?game=42

On connect the stream sends a ``game`` event for each of your running games (or for the game
watched), then one event per change of any of them, in order (the game's end, ``status:
finished``, included); a comment line every ``STREAM_KEEPALIVE_SECONDS``. Each event's ``id`` is
its position in the stream's log (``log``). A client that loses the connection reconnects (the
``retry`` field says after 2 s) with ``Last-Event-ID`` (or ``?last_event_id=``) and gets every
event it missed, once, then the rest; if it was away longer than ``STREAM_REPLAY_SECONDS`` (or
sends an id the log does not know) it gets a ``resync`` event and the snapshot: read the state.

Production serves this path from the ASGI process (uvicorn: ``deploy/``), where a stream is an
asyncio task fed by the process's one reader of the log (``hub``), woken by Redis within
milliseconds of a commit. Without ``STREAM_REDIS_URL`` (the embedded set-up) the hub reads the
log every ``STREAM_FALLBACK_SECONDS``, and under WSGI (the development server) each stream does:
the same events, later.

A stream holds a task (or, under WSGI, a thread) for hours, so each process keeps at most
``STREAM_MAX_PER_USER`` open per account and ``STREAM_MAX_PER_ADDRESS`` per client address
(``accounts.addresses``); beyond, 429 ``throttled``. A watched game is one the caller may see
(``selectors.game_for``): a private game is not found but by its players, invitees and staff,
and a watcher who loses the right (an invitation withdrawn, a seat removed) is cut off at the
next keepalive.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.utils import timezone
from rest_framework import exceptions

from accounts.addresses import client_address
from games import numbers, selectors
from games.api.auth import TokenAuthentication, token_from_header
from games.notifications import pace

from . import log as stream_log
from .hub import RESYNC, db, hub_for

RETRY = b"retry: 2000\n\n"
KEEPALIVE = b": keepalive\n\n"


def _error(status: int, code: str, message: str, **details: Any) -> JsonResponse:
    return JsonResponse(
        {"error": {"code": code, "message": message, "details": details}}, status=status
    )


@dataclass
class Who:
    """Who asks for a stream: the user (None for a watcher without an account), the game
    watched (None: the user's own games), whether that game is private (its visibility is
    checked again while the stream lasts), and the client's address."""

    user: Any
    game_id: int | None
    private: bool
    address: str
    #: The game's page follows the game (a session's stream of one game, static/js/live.js):
    #: the player is on the page (``Seen``), not a program with a token.
    page: bool = False


class Seen:
    """While a player's open page follows their game, its "seen" mark stays fresh: the turn
    emails' pace (``games.notifications.pace``) holds their turn emails while they watch, as
    it does after a page load. Marked when the stream opens and then, at most every
    ``pace.STREAM_SEEN_EVERY``, as the stream goes on (at each event or keepalive)."""

    #: The clock the minute is counted on (a test's to move).
    clock = staticmethod(time.monotonic)

    def __init__(self, who: Who) -> None:
        self.game_id = who.game_id if who.page and who.user is not None else None
        self.user_id = who.user.pk if who.user is not None else None
        self.at: float | None = None

    def due(self) -> bool:
        every = pace.STREAM_SEEN_EVERY.total_seconds()
        return self.game_id is not None and (self.at is None or self.clock() - self.at >= every)

    def mark(self) -> None:
        """Sync (the database): call when ``due``."""
        self.at = self.clock()
        assert self.game_id is not None
        assert self.user_id is not None
        pace.stream_seen(game_id=self.game_id, user_id=self.user_id, now=timezone.now())


class Slots:
    """The streams open in this process, per account and per client address: a stream takes a
    slot of each before it starts and gives them back when it ends (``release``, idempotent:
    called by the response's close and by the stream's own end, whichever comes first)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def take(self, who: Who) -> Callable[[], None] | None:
        """A release function, or None when the account or the address has its most open."""
        keys: list[tuple[str, int]] = [(f"addr:{who.address}", settings.STREAM_MAX_PER_ADDRESS)]
        if who.user is not None:
            keys.append((f"user:{who.user.pk}", settings.STREAM_MAX_PER_USER))
        with self._lock:
            if any(self._open[k] >= limit for k, limit in keys):
                return None
            for k, _limit in keys:
                self._open[k] += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                for k, _limit in keys:
                    self._open[k] -= 1
                    if self._open[k] <= 0:
                        del self._open[k]

        return release

    def count(self, key: str) -> int:
        with self._lock:
            return self._open[key]


#: This process's open streams (each stream process counts its own).
SLOTS = Slots()


def _who(request: HttpRequest) -> tuple[Who | None, JsonResponse | None]:
    """(who asks, or None with an error answer). Sync: reads the database (the token, the
    session, the game)."""
    user = None
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header.strip():
        try:
            token = token_from_header(header.encode("latin-1")) or b""
            user, _token = TokenAuthentication().authenticate_credentials(token)
        except exceptions.AuthenticationFailed as exc:
            return None, _error(401, "authentication_failed", str(exc.detail))
    elif request.user.is_authenticated:
        user = request.user
    game_id = None
    private = False
    try:  # ``?game=`` (empty) is no game: your own games' stream
        game_id = numbers.from_query(request.GET, "game", low=1, high=numbers.ID_MAX)
    except numbers.BadNumber as exc:
        return None, _error(400, "invalid_field", exc.message, **exc.details)  # field, min, max
    if game_id is not None:
        # THE rule of who may see a game: a private one is not found but by its players,
        # invitees and staff (the token's or the session's user).
        game = selectors.game_for(game_id=game_id, user=user)
        if game is None:
            return None, _error(404, "not_found", "No such game.")
        private = selectors.is_private(game)
    elif user is None:
        return None, _error(401, "not_authenticated", "Send a token, or ?game=<id>.")
    page = not header.strip() and user is not None and game_id is not None
    return Who(user, game_id, private, client_address(request), page), None


def still_visible(user_id: int | None, game_id: int | None) -> bool:
    """Whether a watcher of a private game may still see it (checked at each keepalive: an
    invitee whose invitation went, a player the creator removed, stop receiving it)."""
    if game_id is None:
        return True
    user = get_user_model().objects.filter(pk=user_id).first() if user_id is not None else None
    return selectors.game_for(game_id=game_id, user=user) is not None


async def _live(
    reader: stream_log.Reader,
    last_id: int | None,
    recheck: bool = False,
    seen: Seen | None = None,
) -> AsyncIterator[bytes]:
    """ASGI: the events the process's hub hands on (woken by Redis, or reading the log every
    ``STREAM_FALLBACK_SECONDS`` without it). ``recheck``: a private game watched, whose
    visibility is checked again at each keepalive."""
    hub = hub_for(settings.STREAM_REDIS_URL)
    await hub.start()
    queue, at = hub.listen(reader)  # listening before the first read: nothing falls between
    try:
        if seen is not None and seen.due():
            await db(seen.mark)()
        yield RETRY
        for data in await db(stream_log.opening)(reader, last_id, at):
            yield data
        sent = at
        while True:
            if seen is not None and seen.due():
                await db(seen.mark)()
            try:
                pk, data = await asyncio.wait_for(queue.get(), settings.STREAM_KEEPALIVE_SECONDS)
            except TimeoutError:
                if recheck and not await db(still_visible)(reader.user_id, reader.game_id):
                    return
                yield KEEPALIVE
                continue
            if (pk, data) == RESYNC:  # the queue overflowed: catch up from the log
                upto = hub.cursor
                while sent < upto:
                    missed = await db(stream_log.after)(reader, sent, upto)
                    for event in missed:
                        yield reader.frame(event)
                    sent = missed[-1].pk if len(missed) >= stream_log.BATCH else upto
                continue
            if pk > sent:  # (the first read may have told it already)
                sent = pk
                yield data
    finally:
        hub.forget(queue, reader)


def _follow(
    reader: stream_log.Reader,
    last_id: int | None,
    recheck: bool = False,
    seen: Seen | None = None,
) -> Iterator[bytes]:
    """WSGI (the development server, a thread per stream): read the log every
    ``STREAM_FALLBACK_SECONDS``, from where the last read stopped."""
    if seen is not None and seen.due():
        seen.mark()
    yield RETRY
    at = stream_log.head()
    yield from stream_log.opening(reader, last_id, at)
    quiet_since = time.monotonic()
    while True:
        if seen is not None and seen.due():
            seen.mark()
        time.sleep(settings.STREAM_FALLBACK_SECONDS)
        upto = stream_log.head()
        while at < upto:
            events = stream_log.after(reader, at, upto)
            for event in events:
                quiet_since = time.monotonic()
                yield reader.frame(event)
            at = events[-1].pk if len(events) >= stream_log.BATCH else upto
        if time.monotonic() - quiet_since >= settings.STREAM_KEEPALIVE_SECONDS:
            quiet_since = time.monotonic()
            if recheck and not still_visible(reader.user_id, reader.game_id):
                return
            yield KEEPALIVE


async def stream(request: HttpRequest) -> HttpResponseBase:
    if request.method != "GET":
        return _error(405, "method_not_allowed", "Use GET.")
    # Under WSGI (the development server, the test client) the view's thread is the request's:
    # read there, in the request's transaction.
    asgi = isinstance(request, ASGIRequest)
    who, error = await (db(_who) if asgi else sync_to_async(_who))(request)
    if who is None:
        assert error is not None
        return error
    release = SLOTS.take(who)
    if release is None:
        return _error(
            429,
            "throttled",
            f"Too many event streams open: at most {settings.STREAM_MAX_PER_USER} per account "
            f"and {settings.STREAM_MAX_PER_ADDRESS} per address. Close one (one stream carries "
            "all your games).",
            retry_after=int(settings.STREAM_KEEPALIVE_SECONDS),
        )
    reader = stream_log.Reader(
        user_id=who.user.pk if who.user is not None else None, game_id=who.game_id
    )
    last_id = stream_log.parse_last_event_id(
        request.headers.get("Last-Event-ID", "") or request.GET.get("last_event_id", "")
    )
    content: AsyncIterator[bytes] | Iterator[bytes]
    seen = Seen(who)
    if asgi:
        content = _released_async(_live(reader, last_id, who.private, seen), release)
    else:
        content = _released(_follow(reader, last_id, who.private, seen), release)
    response = StreamResponse(content, release=release, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


class StreamResponse(StreamingHttpResponse):
    """A stream that gives its slots back when the server closes it (the client went), even
    if it never started."""

    def __init__(self, *args: Any, release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._release = release

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._release()


def _released(content: Iterator[bytes], release: Callable[[], None]) -> Iterator[bytes]:
    try:
        yield from content
    finally:
        release()


async def _released_async(
    content: AsyncIterator[bytes], release: Callable[[], None]
) -> AsyncIterator[bytes]:
    try:
        async for chunk in content:
            yield chunk
    finally:
        release()
