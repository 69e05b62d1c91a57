"""``GET /api/v1/stream/``: server-sent events of your games (or of one game you watch).

    curl -N -H 'Authorization: Bearer <token>' https://example.org/api/v1/stream/
    curl -N https://example.org/api/v1/stream/?game=42

On connect the stream sends a ``game`` event for each of your running games (or for the game
watched), then one each time one of them changes; a comment line every
``STREAM_KEEPALIVE_SECONDS``. Each event's ``id`` is ``<game>:<seq>``. A client that loses the
connection reconnects (the ``retry`` field says after 2 s) and gets the snapshot again, so a
change made while it was away is not lost: the snapshot holds each game's latest ``seq``.

Production serves this path from the ASGI process (uvicorn: ``deploy/``), where a stream is an
asyncio task woken by the process's one Redis subscription (``hub``). Elsewhere (the embedded
set-up, WSGI, no ``STREAM_REDIS_URL``) the stream re-reads its games every
``STREAM_FALLBACK_SECONDS``: the same events, later.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase, JsonResponse, StreamingHttpResponse
from rest_framework import exceptions

from games.api.auth import TokenAuthentication, token_from_header
from games.models import Game, Seat

from . import events
from .hub import RESYNC, hub_for

RETRY = b"retry: 2000\n\n"
KEEPALIVE = b": keepalive\n\n"
#: Seconds a new stream waits for its process's subscription before reading the snapshot.
SUBSCRIBE_WAIT = 2.0


def _db(fn: Any) -> Any:
    """Run ``fn`` on the shared thread pool, not on the request's own thread: a database
    connection belongs to a thread, and a stream's request lives for hours, so reads on its own
    thread would hold one connection per open stream (a thousand streams, a thousand
    connections). The pool's few threads keep one each (closed when broken or too old, as a
    request's would be)."""

    def run(*args: Any) -> Any:
        close_old_connections()
        return fn(*args)

    return sync_to_async(run, thread_sensitive=False)


def _error(status: int, code: str, message: str, **details: Any) -> JsonResponse:
    return JsonResponse(
        {"error": {"code": code, "message": message, "details": details}}, status=status
    )


def _who(request: HttpRequest) -> tuple[Any, int | None, JsonResponse | None]:
    """(user or None, the game watched or None, an error answer or None). Sync: reads the
    database (the token, the session, the game)."""
    user = None
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header.strip():
        try:
            token = token_from_header(header.encode("latin-1")) or b""
            user, _token = TokenAuthentication().authenticate_credentials(token)
        except exceptions.AuthenticationFailed as exc:
            return None, None, _error(401, "authentication_failed", str(exc.detail))
    elif request.user.is_authenticated:
        user = request.user
    raw = request.GET.get("game", "")
    game_id = None
    if raw:
        try:
            game_id = int(raw)
        except ValueError:
            return None, None, _error(400, "invalid_field", "game: a game id.", field="game")
        if not Game.objects.filter(pk=game_id).exists():
            return None, None, _error(404, "not_found", "No such game.")
    elif user is None:
        return None, None, _error(401, "not_authenticated", "Send a token, or ?game=<id>.")
    return user, game_id, None


def snapshot(user_id: int | None, game_id: int | None) -> list[tuple[int, int, bytes]]:
    """(game, seq, frame) for the watched game, or for each running game of the user."""
    if game_id is None and user_id is None:
        return []
    if game_id is not None:
        game = Game.objects.get(pk=game_id)
        body = {"event": "game", "game": events.game_body(game)}
        return [(game.pk, game.seq, events.frame(body, f"{game.pk}:{game.seq}"))]
    seats = (
        Seat.objects.filter(user_id=int(user_id or 0), game__status=Game.Status.RUNNING)
        .select_related("game")
        .order_by("game_id")
    )
    out = []
    for seat in seats:
        game = seat.game
        body = events.seat_body(game, seat, events.game_body(game))
        out.append((game.pk, game.seq, events.frame(body, f"{game.pk}:{game.seq}")))
    return out


def _channels(user_id: int | None, game_id: int | None) -> list[str]:
    if game_id is not None:
        return [events.game_channel(game_id)]
    assert user_id is not None
    return [events.user_channel(user_id)]


async def _live(user_id: int | None, game_id: int | None) -> AsyncIterator[bytes]:
    """Woken by the process's Redis subscription: each published frame as it comes."""
    hub = hub_for(settings.STREAM_REDIS_URL)
    channels = _channels(user_id, game_id)
    queue = hub.listen(channels)  # listening before the snapshot: no change falls between
    try:
        # Redis away: the snapshot now, the rest when the hub is back (RESYNC).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(hub.ready.wait(), SUBSCRIBE_WAIT)
        yield RETRY
        for _g, _s, data in await _db(snapshot)(user_id, game_id):
            yield data
        while True:
            try:
                data = await asyncio.wait_for(queue.get(), settings.STREAM_KEEPALIVE_SECONDS)
            except TimeoutError:
                yield KEEPALIVE
                continue
            if data == RESYNC:
                for _g, _s, frame in await _db(snapshot)(user_id, game_id):
                    yield frame
            else:
                yield data
    finally:
        hub.forget(queue, channels)


def _changed(seen: dict[int, int], rows: list[tuple[int, int, bytes]]) -> Iterator[bytes]:
    for game_id, seq, data in rows:
        if seen.get(game_id) != seq:
            seen[game_id] = seq
            yield data


async def _reread_async(user_id: int | None, game_id: int | None) -> AsyncIterator[bytes]:
    """No Redis: read the games again every ``STREAM_FALLBACK_SECONDS``."""
    seen: dict[int, int] = {}
    yield RETRY
    quiet_since = time.monotonic()
    while True:
        rows = await _db(snapshot)(user_id, game_id)
        for data in _changed(seen, rows):
            quiet_since = time.monotonic()
            yield data
        if time.monotonic() - quiet_since >= settings.STREAM_KEEPALIVE_SECONDS:
            quiet_since = time.monotonic()
            yield KEEPALIVE
        await asyncio.sleep(settings.STREAM_FALLBACK_SECONDS)


def _reread(user_id: int | None, game_id: int | None) -> Iterator[bytes]:
    """The same under WSGI (the development server; a thread per stream)."""
    seen: dict[int, int] = {}
    yield RETRY
    quiet_since = time.monotonic()
    while True:
        for data in _changed(seen, snapshot(user_id, game_id)):
            quiet_since = time.monotonic()
            yield data
        if time.monotonic() - quiet_since >= settings.STREAM_KEEPALIVE_SECONDS:
            quiet_since = time.monotonic()
            yield KEEPALIVE
        time.sleep(settings.STREAM_FALLBACK_SECONDS)


async def stream(request: HttpRequest) -> HttpResponseBase:
    if request.method != "GET":
        return _error(405, "method_not_allowed", "Use GET.")
    # Under WSGI (the development server, the test client) the view's thread is the request's:
    # read there, in the request's transaction.
    asgi = isinstance(request, ASGIRequest)
    user, game_id, error = await (_db(_who) if asgi else sync_to_async(_who))(request)
    if error is not None:
        return error
    user_id = user.pk if user is not None else None
    content: AsyncIterator[bytes] | Iterator[bytes]
    if not asgi:
        content = _reread(user_id, game_id)
    elif settings.STREAM_REDIS_URL:
        content = _live(user_id, game_id)
    else:
        content = _reread_async(user_id, game_id)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
