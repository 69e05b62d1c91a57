"""One Redis subscription per stream process, shared by all its clients.

A stream process (uvicorn, ASGI) may hold thousands of open streams. Each would otherwise keep a
Redis connection of its own; instead the hub subscribes once to every stream channel
(``pgstream:*``) and hands each message to the queues of the clients listening on its channel.
A message is the encoded SSE frame (``events.frame``): handing it on costs a queue put.

When the subscription breaks, every client gets ``RESYNC`` and reads its games afresh (it may
have missed a change while Redis was away); the hub reconnects with a growing pause.
"""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from .events import PREFIX

log = logging.getLogger("games.stream")

#: Put on every queue when the subscription was lost: read the state again.
RESYNC = b""
#: Messages a slow client may have waiting before it is told to resync instead.
QUEUE_SIZE = 100


class Hub:
    """Channel -> the queues of the clients listening to it, fed by one subscription."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.listeners: dict[str, set[asyncio.Queue[bytes]]] = {}
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    def listen(self, channels: list[str]) -> asyncio.Queue[bytes]:
        """A queue receiving the frames published on ``channels`` from now on."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        queue: asyncio.Queue[bytes] = asyncio.Queue(QUEUE_SIZE)
        for channel in channels:
            self.listeners.setdefault(channel, set()).add(queue)
        return queue

    def forget(self, queue: asyncio.Queue[bytes], channels: list[str]) -> None:
        for channel in channels:
            queues = self.listeners.get(channel)
            if queues is not None:
                queues.discard(queue)
                if not queues:
                    del self.listeners[channel]

    def _deliver(self, channel: str, data: bytes) -> None:
        for queue in list(self.listeners.get(channel, ())):
            try:
                queue.put_nowait(data)
            except asyncio.QueueFull:  # a client that does not read: it resyncs when it does
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(RESYNC)

    def _resync_all(self) -> None:
        for queues in self.listeners.values():
            for queue in queues:
                if queue.empty():
                    queue.put_nowait(RESYNC)

    async def _run(self) -> None:
        pause = 0.5
        while True:
            client = aioredis.Redis.from_url(self.url)
            try:
                pubsub = client.pubsub()
                await pubsub.psubscribe(PREFIX + "*")
                self.ready.set()
                pause = 0.5
                async for msg in pubsub.listen():
                    if msg.get("type") == "pmessage":
                        channel = msg["channel"]
                        if isinstance(channel, bytes):
                            channel = channel.decode()
                        self._deliver(channel, msg["data"])
            except (RedisError, OSError):
                log.warning("stream hub lost Redis; reconnecting in %.1f s", pause)
            finally:
                self.ready.clear()
                await client.aclose()
            self._resync_all()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)


_hubs: dict[int, Hub] = {}


def hub_for(url: str) -> Hub:
    """The hub of the running event loop (one per process and loop)."""
    loop_id = id(asyncio.get_running_loop())
    hub = _hubs.get(loop_id)
    if hub is None:
        hub = _hubs[loop_id] = Hub(url)
    return hub
