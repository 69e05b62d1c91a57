"""What the event stream says, and how a change reaches it.

Every change of a game is logged in its transaction (``log.record``: a ``StreamEvent`` row);
each stream reads the log (``log``, ``hub``). The events:

``game``: a game of yours (or the game you watch) has changed. Its body holds only public
facts, the same for every reader: the game's id, map, ``seq``, status and the seats awaited; on
a player's own stream also their seat, whether it is their turn and its deadline. A client reads
the state (``GET /api/v1/games/{id}/state/``) for the rest, so nothing secret (money, the deck,
plans, sealed bids) ever travels on the stream. The game's end is a ``game`` event with
``status: finished``, on the watchers' streams and on each player's own.

``takeback`` (moves taken back) or ``takeback_asked`` (a player asks the others to agree): after
the ``game`` event of the same change, with the moves and seats concerned.

``resync``: sent on reconnect when the events missed are no longer kept (``Last-Event-ID``
older than ``STREAM_REPLAY_SECONDS``, or unknown): read the state again; the snapshot follows.

Redis (``STREAM_REDIS_URL``) only wakes the stream processes after a commit (``wake``): a
message on ``WAKE_CHANNEL`` saying "the log has news". Nothing is lost when Redis is down or a
wake-up is missed: the processes read the log from where they stopped at their next read.
Every key and channel the stream uses in Redis starts with ``PREFIX``:

>>> WAKE_CHANNEL
'pgstream:wake'
>>> WAKE_CHANNEL.startswith(PREFIX)
True
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings

log = logging.getLogger("games.stream")

PREFIX = "pgstream:"
#: The channel a commit's wake-up is published on (the message: the newest event's id).
WAKE_CHANNEL = f"{PREFIX}wake"

_clients: dict[str, redis.Redis] = {}


def _redis() -> redis.Redis:
    url = settings.STREAM_REDIS_URL
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(url, socket_timeout=1)
    return client


def wake(newest: int) -> None:
    """Tell the stream processes the log has news (after the commit). A Redis that is down
    loses only the wake-up: the processes read the log again within STREAM_KEEPALIVE_SECONDS
    (STREAM_FALLBACK_SECONDS while their subscription is broken)."""
    try:
        _redis().publish(WAKE_CHANNEL, str(newest))
    except redis.RedisError:
        log.warning("could not wake the streams (event %d)", newest)
