"""The stream's event log (``StreamEvent``): written in the transaction of each change, read by
every stream, so a change is told once and in order in every set-up.

Why a log: Redis publish/subscribe forgets what nobody heard (a client reconnecting, a stream
process starting, Redis away), and re-reading the games only tells their latest state (353 moves
gave about 20 events). A stream instead reads "every event after the last one I sent"; Redis
only wakes it sooner (``WAKE_CHANNEL``), the embedded set-up reads every
``STREAM_FALLBACK_SECONDS``.

"After N" has no gap only if ids are given in commit order: a transaction holding id 10 but
committing after the one holding 11 would be skipped by a reader that saw 11 first. So
``record`` takes one PostgreSQL advisory lock (held to the commit) before the insert, as the
LAST write of the change (``games.turns`` calls it after its bookkeeping), so the lock is held
only from that insert to the commit, and no transaction waits for it while holding a lock the
holder needs. SQLite writes one transaction at a time anyway.

An event's ``id`` is its id on the stream (``id: <n>``); a client reconnecting sends it back as
``Last-Event-ID``. Events are kept ``STREAM_REPLAY_SECONDS`` (``prune``): a client away longer,
or sending an id the log does not know, gets a ``resync`` event and the snapshot instead.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, cast

import orjson
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from games import numbers
from games.models import Game, Move, Seat, StreamEvent
from games.restore import committed
from games.shapes import GameStatus

from . import events

if TYPE_CHECKING:  # the schema module pulls in the OpenAPI generator: for the types only
    from powergrid.state import State

    from .schema import StreamGame

log = logging.getLogger("games.stream")

#: The advisory lock that orders the log's ids (any constant of our own: "pgst").
ORDER_LOCK = 0x70677374
#: Prune the log once every this many events (the event whose id is a multiple).
PRUNE_EVERY = 200
#: Events read at once by a stream catching up.
BATCH = 500
#: A round sheet asked (``games.sheets.asking``): told on the own streams of the players asked,
#: each with their seat and the sheet's deadline.
SHEET_ASKED = "sheet_asked"
#: Events told on the players' own streams only, never to a game's watchers (``?game=``): a
#: tournament's (the ``tournaments`` app records them on a table's game, for its players, or
#: for the players named: a round's byes, the final standings), and a round sheet asked.
PERSONAL_KINDS = ("table_ready", "round_started", "final_standings", SHEET_ASKED)


def game_body(game: Game) -> StreamGame:
    """The public facts of ``game`` every reader may see (the schema's ``StreamGame``)."""
    return {
        "id": game.pk,
        "map": game.map,
        "seq": game.seq,
        "status": cast(GameStatus, game.status),
        "to_act": sorted(int(x) for x in (game.to_act or [])),
    }


def _seats(
    game: Game, seats: list[Seat], awaited_then: list[int] | None = None
) -> dict[str, list[int | str | None]]:
    """Each player's seat and, if awaited (at the end of the commit, and by the event's move:
    ``awaited_then``), the deadline."""
    awaited = {int(x) for x in game.to_act or []} if game.status == Game.Status.RUNNING else set()
    if awaited_then is not None:
        awaited &= set(awaited_then)
    return {
        str(s.user_id): [
            s.seat,
            s.deadline.isoformat() if s.seat in awaited and s.deadline else None,
        ]
        for s in seats
        if s.user_id is not None
    }


def _order() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ORDER_LOCK])


def sheet_asked(
    game: Game, seats: list[Seat], asked: Collection[int], round_: int
) -> list[tuple[Game, list[Seat], str, Mapping[str, object] | None]]:
    """The ``sheet_asked`` change of ``record_many`` for the seats ``asked`` (none: nothing):
    one event, told to those seats' players, each with their seat and deadline (``frame``)."""
    mine = [s for s in seats if s.seat in asked and s.user_id is not None]
    if not mine:
        return []
    return [(game, mine, SHEET_ASKED, {"sheet": {"round": round_}})]


def record(
    game: Game,
    seats: list[Seat],
    kind: str = "game",
    facts: Mapping[str, object] | None = None,
    *,
    moves: Sequence[Move] = (),
) -> None:
    """Log a change of ``game`` (inside its transaction, as its last write): a ``game`` event
    (the game's public facts), or an event of its own (``takeback``, ``takeback_asked``, with
    its ``facts``: ``{"takeback": {...}}``, after the ``game`` event of the same change).

    ``moves``: the moves of the change (a move and those the players' plans made at once, a
    take-back's entry and theirs): one ``game`` event each, with its ``seq`` and the seats it
    left awaited (``Move.to_act_after``), so a client is told every move, not only the last."""
    record_many([(game, seats, kind, facts)], moves={game.pk: moves})


def _game_events(
    game: Game, seats: list[Seat], moves: Sequence[Move]
) -> list[tuple[int, dict[str, object], dict[str, list[int | str | None]]]]:
    """(seq, body, seats) of the ``game`` events of one change: one per move that came before
    the last (running, awaiting ``to_act_after``), then the game as it stands."""
    out: list[tuple[int, dict[str, object], dict[str, list[int | str | None]]]] = []
    for move in moves[:-1]:
        if move.to_act_after is None or move.seq >= game.seq:
            continue
        awaited = list(move.to_act_after)
        then = {**game_body(game), "seq": move.seq, "status": "running", "to_act": awaited}
        out.append((move.seq, {"event": "game", "game": then}, _seats(game, seats, awaited)))
    out.append((game.seq, {"event": "game", "game": game_body(game)}, _seats(game, seats)))
    return out


def record_many(
    changes: list[tuple[Game, list[Seat], str, Mapping[str, object] | None]],
    *,
    moves: Mapping[int, Sequence[Move]] | None = None,
    states: Mapping[int, tuple[State | None, State | None]] | None = None,
) -> None:
    """``record`` for several changes of one transaction (the sweeper's batch), in one INSERT;
    ``moves``: each game's moves (``record``).

    Every change of a game's moves passes here (``games.turns``: a move, the plans', the
    sweeper's, a round sheet's, a take-back), so here each ``game`` change with moves, or with
    ``states`` (a game just started), also leaves its line in the delivery journal after the
    commit (``games.restore.committed``): ``states``, each game's engine state before its first
    move that is not a take-back and after its last, from which the line's public entries are
    made without a query."""
    if not changes:
        return
    _journal(changes, moves or {}, states or {})
    _order()
    rows = []
    for game, seats, kind, facts in changes:
        if kind == "game":
            for seq, body, told in _game_events(game, seats, (moves or {}).get(game.pk, ())):
                rows.append(StreamEvent(game=game, seq=seq, kind=kind, body=body, seats=told))
            continue
        body = {"event": kind, "game": {"id": game.pk, "seq": game.seq}, **(facts or {})}
        told = _seats(game, seats)
        if kind == SHEET_ASKED:  # the seats asked, each with the sheet's deadline
            told = {
                str(s.user_id): [s.seat, s.deadline.isoformat() if s.deadline else None]
                for s in seats
            }
        rows.append(StreamEvent(game=game, seq=game.seq, kind=kind, body=body, seats=told))
    made = StreamEvent.objects.bulk_create(rows)
    last = max((e.pk or 0) for e in made) if made else 0
    if last and any(e.pk and e.pk % PRUNE_EVERY == 0 for e in made):
        prune(last)
    if settings.STREAM_REDIS_URL:
        transaction.on_commit(lambda: events.wake(last))


def _journal(
    changes: list[tuple[Game, list[Seat], str, Mapping[str, object] | None]],
    moves: Mapping[int, Sequence[Move]],
    states: Mapping[int, tuple[State | None, State | None]],
) -> None:
    lines: list[committed.Change] = []
    for game, seats, kind, _facts in changes:
        made = moves.get(game.pk, ())
        if kind == "game" and (made or game.pk in states):
            start, end = states.get(game.pk, (None, None))
            lines.append((game, seats, made, start, end))
    committed.moves_committed(lines)


def record_personal(
    game: Game, user_ids: Sequence[int], kind: str, facts: Mapping[str, object]
) -> None:
    """Log an event of ``kind`` (one of ``PERSONAL_KINDS``) for the players ``user_ids``' own
    streams, carried by ``game`` (whose id and ``seq`` it says), inside the transaction of the
    change, as its last write (``record``)."""
    if not user_ids:
        return
    _order()
    body = {"event": kind, "game": {"id": game.pk, "seq": game.seq}, **facts}
    told: dict[str, list[int | str | None]] = {str(u): [None, None] for u in user_ids}
    event = StreamEvent.objects.create(game=game, seq=game.seq, kind=kind, body=body, seats=told)
    if settings.STREAM_REDIS_URL:
        newest = int(event.pk)
        transaction.on_commit(lambda: events.wake(newest))


def prune(newest: int) -> int:
    """Delete the events older than ``STREAM_REPLAY_SECONDS`` (never the newest, whose id a
    fresh stream hands out as its position)."""
    cutoff = timezone.now() - timedelta(seconds=settings.STREAM_REPLAY_SECONDS)
    deleted, _ = StreamEvent.objects.filter(created_at__lt=cutoff, id__lt=newest).delete()
    return deleted


# -- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reader:
    """Whose events a stream tells: one user's games (their own stream) or one game (watched)."""

    user_id: int | None
    game_id: int | None

    def wants(self, event: StreamEvent) -> bool:
        if self.game_id is not None:
            return event.game_id == self.game_id and event.kind not in PERSONAL_KINDS
        return str(self.user_id) in event.seats

    def frame(self, event: StreamEvent, event_id: int | None = None) -> bytes:
        """The event as this reader is told it (with the id ``event_id``: the snapshot's)."""
        body = event.body
        if self.game_id is None and event.kind == "game":
            seat, deadline = event.seats[str(self.user_id)]
            game = body["game"]
            mine = seat in game["to_act"] and game["status"] == Game.Status.RUNNING
            body = {**body, "seat": seat, "your_turn": mine, "deadline": deadline if mine else None}
        elif self.game_id is None and event.kind == SHEET_ASKED:
            seat, deadline = event.seats[str(self.user_id)]
            body = {**body, "seat": seat, "deadline": deadline}
        return frame(body, str(event_id if event_id is not None else event.pk), event.kind)


def frame(body: Mapping[str, object], event_id: str | None, event: str = "game") -> bytes:
    """One server-sent event, ready to write.

    >>> frame({"event": "game", "game": {"id": 7, "seq": 3}}, "12")
    b'id: 12\\nevent: game\\ndata: {"event":"game","game":{"id":7,"seq":3}}\\n\\n'
    """
    head = b"id: %s\n" % event_id.encode() if event_id is not None else b""
    return head + b"event: %s\ndata: %s\n\n" % (event.encode(), orjson.dumps(body))


def head() -> int:
    """The newest event's id (0: none yet)."""
    return int(StreamEvent.objects.aggregate(m=Max("id"))["m"] or 0)


def after(reader: Reader, since: int, until: int | None = None) -> list[StreamEvent]:
    """The reader's events with ``since < id <= until``, oldest first (at most ``BATCH``)."""
    qs = StreamEvent.objects.filter(id__gt=since)
    if until is not None:
        qs = qs.filter(id__lte=until)
    if reader.game_id is not None:
        qs = qs.filter(game_id=reader.game_id).exclude(kind__in=PERSONAL_KINDS)
    else:
        qs = qs.filter(seats__has_key=str(reader.user_id))
    return list(qs.order_by("id")[:BATCH])


def all_after(since: int) -> list[StreamEvent]:
    """Every event after ``since`` (a stream process's hub, which hands them to its streams)."""
    return list(StreamEvent.objects.filter(id__gt=since).order_by("id")[:BATCH])


def resumable(since: int) -> bool:
    """Whether every event after ``since`` is still in the log: the event ``since`` itself is
    (pruning deletes the oldest first, so all later ones are too)."""
    return since > 0 and StreamEvent.objects.filter(id=since).exists()


def snapshot(reader: Reader, at: int) -> list[bytes]:
    """What a stream says on connect: the latest ``game`` event at ``at`` of the watched game,
    or of each running game of the user, each with id ``at`` (the position to resume from)."""
    if reader.game_id is not None:
        game_ids = [reader.game_id]
    else:
        game_ids = list(
            Seat.objects.filter(user_id=int(reader.user_id or 0), game__status=Game.Status.RUNNING)
            .order_by("game_id")
            .values_list("game_id", flat=True)
        )
    if not game_ids:
        return []
    latest = (
        StreamEvent.objects.filter(game_id__in=game_ids, id__lte=at, kind="game")
        .values("game_id")
        .annotate(m=Max("id"))
    )
    events = {e.game_id: e for e in StreamEvent.objects.filter(id__in=[r["m"] for r in latest])}
    out = []
    missing = [g for g in game_ids if g not in events]
    games = {g.pk: g for g in Game.objects.filter(pk__in=missing)}
    seats = {}
    if missing and reader.user_id is not None:
        seats = {
            s.game_id: s for s in Seat.objects.filter(game_id__in=missing, user_id=reader.user_id)
        }
    for game_id in game_ids:
        event = events.get(game_id)
        if event is None:  # a game older than the log: its row (no change of it logged yet)
            game = games.get(game_id)
            if game is None:
                continue
            seat = seats.get(game_id)
            event = StreamEvent(
                pk=at,
                game=game,
                seq=game.seq,
                body={"event": "game", "game": game_body(game)},
                seats=_seats(game, [seat]) if seat is not None else {},
            )
        if reader.game_id is None and str(reader.user_id) not in event.seats:
            continue
        out.append(reader.frame(event, at))
    return out


def resync(reason: str, at: int) -> bytes:
    """The event that tells a client its missed events are gone: read the state again."""
    return frame({"event": "resync", "reason": reason, "at": at}, None, "resync")


def opening(reader: Reader, last_id: int | None, at: int) -> list[bytes]:
    """What a stream says first, up to the event ``at`` (after it, the stream follows the log):
    without ``Last-Event-ID`` the snapshot; with one still in the log every event of the reader
    after it (nothing missed, nothing twice); with one that is not (too old, unknown) a
    ``resync`` event, then the snapshot."""
    if last_id is None:
        return snapshot(reader, at)
    if last_id < 0 or last_id > at:
        return [resync("unknown", at), *snapshot(reader, at)]
    if last_id < at and not resumable(last_id):
        return [resync("expired", at), *snapshot(reader, at)]
    out: list[bytes] = []
    since = last_id
    while True:
        events = after(reader, since, at)
        out += [reader.frame(e) for e in events]
        if len(events) < BATCH:
            return out
        since = events[-1].pk


def parse_last_event_id(raw: str) -> int | None:
    """The position a reconnecting client sends (``Last-Event-ID``): an event id, or None."""
    raw = raw.strip()
    if not raw:
        return None
    try:  # games.numbers: ASCII digits below 2^63 ("٣" or 5,000 digits are no position)
        return numbers.from_text(raw, field="Last-Event-ID", low=0, high=numbers.ID_MAX)
    except numbers.BadNumber:
        return -1
