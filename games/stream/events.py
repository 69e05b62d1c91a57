"""What the event stream says, and how a change reaches it.

The event type ``game``: a game of yours (or the game you watch) has changed. Its body holds
only public facts, the same for every reader of a channel: the game's id, map, ``seq``, status
and the seats awaited; on a player's own channel also their seat, whether it is their turn and
its deadline. A client reads the state (``GET /api/v1/games/{id}/state/``) for the rest, so
nothing secret (money, the deck, plans, sealed bids) ever travels on the stream.

A take-back adds an event of its own after its ``game`` event: ``takeback`` (moves taken back)
or ``takeback_asked`` (a player asks the others to agree), with the moves and seats concerned.

Two channels per change, published after the transaction commits (``publish_on_commit``):
``pgstream:game:<id>`` for anyone watching the game and ``pgstream:user:<id>`` for each player.
Each message is the SSE frame already encoded: a stream process hands the same bytes to every
client of a channel (a thousand watchers cost one encoding).

>>> frame({"event": "game", "game": {"id": 7, "seq": 3}}, "7:3")
b'id: 7:3\\nevent: game\\ndata: {"event":"game","game":{"id":7,"seq":3}}\\n\\n'
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
import redis
from django.conf import settings
from django.db import transaction

from games.models import Game, Seat

log = logging.getLogger("games.stream")

PREFIX = "pgstream:"


def game_channel(game_id: int) -> str:
    return f"{PREFIX}game:{game_id}"


def user_channel(user_id: int) -> str:
    return f"{PREFIX}user:{user_id}"


def frame(body: dict[str, Any], event_id: str, event: str = "game") -> bytes:
    """One server-sent event, ready to write."""
    return b"id: %s\nevent: %s\ndata: %s\n\n" % (
        event_id.encode(),
        event.encode(),
        orjson.dumps(body),
    )


def game_body(game: Game) -> dict[str, Any]:
    """The public facts of ``game`` every reader may see."""
    return {
        "id": game.pk,
        "map": game.map,
        "seq": game.seq,
        "status": game.status,
        "to_act": sorted(int(x) for x in (game.to_act or [])),
    }


def seat_body(game: Game, seat: Seat, public: dict[str, Any]) -> dict[str, Any]:
    """What a player's own channel says about ``game``: the public facts and their turn."""
    mine = seat.seat in public["to_act"] and game.status == Game.Status.RUNNING
    return {
        "event": "game",
        "game": public,
        "seat": seat.seat,
        "your_turn": mine,
        "deadline": seat.deadline.isoformat() if mine and seat.deadline else None,
    }


def messages(game: Game, seats: list[Seat]) -> list[tuple[str, bytes]]:
    """(channel, frame) for a change of ``game``: one for its watchers, one per player."""
    public = game_body(game)
    event_id = f"{game.pk}:{game.seq}"
    out = [(game_channel(game.pk), frame({"event": "game", "game": public}, event_id))]
    for seat in seats:
        out.append((user_channel(seat.user_id), frame(seat_body(game, seat, public), event_id)))
    return out


_client: redis.Redis | None = None


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(settings.STREAM_REDIS_URL, socket_timeout=1)
    return _client


def publish(msgs: list[tuple[str, bytes]]) -> None:
    """Publish now, in one round trip. A Redis that is down loses only the wake-up: a stream
    that reconnects reads its games afresh."""
    try:
        pipe = _redis().pipeline(transaction=False)
        for channel, data in msgs:
            pipe.publish(channel, data)
        pipe.execute()
    except redis.RedisError:
        log.warning("could not publish %d stream events", len(msgs))


def event_messages(
    game: Game, seats: list[Seat], event: str, facts: dict[str, Any]
) -> list[tuple[str, bytes]]:
    """(channel, frame) of an event of its own about ``game`` (``takeback``: moves taken back;
    ``takeback_asked``: a player asks the others to agree), after the ``game`` event of the same
    change: ``{"event", "game": {"id", "seq"}, ...facts}``, the same on every channel."""
    body = {"event": event, "game": {"id": game.pk, "seq": game.seq}, **facts}
    data = frame(body, f"{game.pk}:{game.seq}:{event}", event)
    return [(game_channel(game.pk), data)] + [(user_channel(s.user_id), data) for s in seats]


def publish_event_on_commit(
    game: Game, seats: list[Seat], event: str, facts: dict[str, Any]
) -> None:
    """Publish an event of its own (``event_messages``) after the transaction commits."""
    if not settings.STREAM_REDIS_URL:
        return
    msgs = event_messages(game, seats, event, facts)
    transaction.on_commit(lambda: publish(msgs))


def publish_on_commit(game: Game, seats: list[Seat]) -> None:
    """Publish the change of ``game`` after its transaction commits (nothing when no Redis is
    configured: the embedded set-up's streams re-read their games instead). The frames are
    built now, from the values this transaction wrote."""
    if not settings.STREAM_REDIS_URL:
        return
    msgs = messages(game, seats)
    transaction.on_commit(lambda: publish(msgs))
