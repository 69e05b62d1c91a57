"""One reader of the event log per stream process, shared by all its clients.

A stream process (uvicorn, ASGI) may hold thousands of open streams. Each would otherwise read
the log (``log``) on its own; instead the hub reads "every event after the last one I read"
once per wake-up and hands each event, already encoded, to the queues of the streams that want
it (a game's watchers, each player of the game).

The hub wakes when Redis says an event was logged (``WAKE_CHANNEL``: a stream learns of a move
within milliseconds of its commit), and every ``STREAM_FALLBACK_SECONDS`` without Redis (the
embedded set-up) or while Redis is away; with Redis it also reads every
``STREAM_KEEPALIVE_SECONDS`` in case a wake-up was lost. However it is woken, it reads the log
from where it stopped, so a lost wake-up delays an event but never loses it.

A stream whose queue fills (a client that does not read) is sent ``RESYNC``: it reads its own
events from the log from where it stopped (nothing is lost either).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from redis.exceptions import RedisError

from games.models import StreamEvent

from . import log as stream_log
from .events import WAKE_CHANNEL

T = TypeVar("T")

log = logging.getLogger("games.stream")

#: Put on a queue that overflowed: read your events from the log from where you stopped.
RESYNC: tuple[int, bytes] = (-1, b"")
#: Events a slow client may have waiting before it is told to catch up from the log instead.
QUEUE_SIZE = 100

Key = tuple[str, int]


def db(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``fn`` on the shared thread pool, not on the request's own thread: a database
    connection belongs to a thread, and a stream's request lives for hours, so reads on its own
    thread would hold one connection per open stream (a thousand streams, a thousand
    connections). The pool's few threads keep one each (closed when broken or too old, as a
    request's would be)."""

    def run(*args: object) -> T:
        close_old_connections()
        return fn(*args)

    return sync_to_async(run, thread_sensitive=False)


class Hub:
    """Reader -> queues of its streams, fed by one reader of the log."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.listeners: dict[Key, set[asyncio.Queue[tuple[int, bytes]]]] = {}
        self.task: asyncio.Task[None] | None = None
        self.redis_task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.wake = asyncio.Event()
        self.subscribed = False
        #: The last event read from the log and handed on: a new stream reads its first events
        #: from the log up to here, and gets the ones after from its queue.
        self.cursor = 0

    async def start(self) -> None:
        """Start reading (once per process and loop) and wait until the hub knows its place."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        await self.ready.wait()

    @staticmethod
    def key(reader: stream_log.Reader) -> Key:
        if reader.game_id is not None:
            return ("game", reader.game_id)
        return ("user", int(reader.user_id or 0))

    def listen(self, reader: stream_log.Reader) -> tuple[asyncio.Queue[tuple[int, bytes]], int]:
        """A queue receiving (id, frame) of the reader's events after the returned position."""
        queue: asyncio.Queue[tuple[int, bytes]] = asyncio.Queue(QUEUE_SIZE)
        self.listeners.setdefault(self.key(reader), set()).add(queue)
        return queue, self.cursor

    def forget(self, queue: asyncio.Queue[tuple[int, bytes]], reader: stream_log.Reader) -> None:
        key = self.key(reader)
        queues = self.listeners.get(key)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[key]

    def _put(self, queues: set[asyncio.Queue[tuple[int, bytes]]], item: tuple[int, bytes]) -> None:
        for queue in list(queues):
            try:
                queue.put_nowait(item)
            except asyncio.QueueFull:  # a client that does not read: it catches up when it does
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(RESYNC)

    def deliver(self, event: StreamEvent) -> None:
        """Hand ``event`` to its game's watchers and to each of its players' streams."""
        watchers = self.listeners.get(("game", event.game_id))
        reader = stream_log.Reader(user_id=None, game_id=event.game_id)
        if watchers and reader.wants(event):  # (a player's own events: not to watchers)
            self._put(watchers, (event.pk, reader.frame(event)))
        for user in event.seats:
            queues = self.listeners.get(("user", int(user)))
            if queues:
                reader = stream_log.Reader(user_id=int(user), game_id=None)
                self._put(queues, (event.pk, reader.frame(event)))

    async def _run(self) -> None:
        while True:
            try:
                self.cursor = await db(stream_log.head)()
                break
            except Exception:
                log.exception("stream hub: cannot read the log; retrying")
                await asyncio.sleep(1)
        self.ready.set()
        if self.url:
            self.redis_task = asyncio.get_running_loop().create_task(self._subscribe())
        while True:
            if self.url and self.subscribed:
                timeout = settings.STREAM_KEEPALIVE_SECONDS
            else:
                timeout = settings.STREAM_FALLBACK_SECONDS
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout)
            self.wake.clear()
            try:
                events = await db(stream_log.all_after)(self.cursor)
            except Exception:
                log.exception("stream hub: cannot read the log")
                await asyncio.sleep(1)
                continue
            # No await from here to the cursor's update: a stream that starts listening sees
            # either none of these events in its queue and a cursor before them, or all of them.
            for event in events:
                self.deliver(event)
            if events:
                self.cursor = events[-1].pk
            if len(events) >= stream_log.BATCH:
                self.wake.set()

    async def _subscribe(self) -> None:
        pause = 0.5
        while True:
            client = aioredis.Redis.from_url(self.url)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(WAKE_CHANNEL)
                self.subscribed = True
                self.wake.set()  # a wake-up may have been missed while away
                pause = 0.5
                async for msg in pubsub.listen():
                    if msg.get("type") == "message":
                        self.wake.set()
            except (RedisError, OSError):
                log.warning("stream hub lost Redis; reading every %.1f s", pause)
            finally:
                self.subscribed = False
                self.wake.set()  # read now, then every STREAM_FALLBACK_SECONDS until back
                await client.aclose()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)


_hubs: dict[int, Hub] = {}


def hub_for(url: str) -> Hub:
    """The hub of the running event loop (one per process and loop)."""
    loop_id = id(asyncio.get_running_loop())
    hub = _hubs.get(loop_id)
    if hub is None or hub.url != url:
        hub = _hubs[loop_id] = Hub(url)
    return hub
