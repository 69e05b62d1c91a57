"""The delivery journal's lines written by the process that committed a change: moves, chat,
chat edits.

The sending worker's lines (``journal.delivered``) say what the players were told; a move no
delivered email described (the next seat's player has emails off, phase 5 where everyone is
awaited already, the last moves before the restore point) or a chat message no turn email
carried (or a message's edit: no line holds it) would be unknown to ``manage.py after_restore``,
and its loss told to nobody. So every committed change with moves, every chat message posted
and every edit of one also leaves a line, appended by the process that committed it (a web host,
a worker, the sweeper) right after the commit (``transaction.on_commit``), to the same
``<DELIVERY_JOURNAL_DIR>/delivered-<host>.jsonl``:

* a ``moves`` line (``kind`` ``moves``, no ``n``: no email): ``at``, ``host``, ``game``, ``seq``
  (the game's move number after the change), ``map``, ``players`` (``[seat, user]``) and
  ``moves``: each move's public log entries (``journal.MoveRow``: seq, seat, source, time, kind,
  params) as ``games.log.describe`` makes them for the game page, from the spectator views of
  the engine states around each move, so nothing hidden is in it (a sealed bid reads as the
  public log shows it, ``seal_bid``, without its amount; no plan, no money); made from the states
  the change had at hand (``stream.log.record_many``'s ``states``), no query. A take-back's entry
  (kind ``takeback``, its ``cancels``) lets ``after_restore`` leave the moves it cancelled untold.
  A game's start writes a line without moves: a game lost whole is known with its players;
* a chat line (``game``, ``chat``: ``[[id, author, at, text]]``, as a turn email's chat line);
* an edit's line (``game``, ``edit``: ``[id, author, at, edited_at, text]``, the new text): a
  restore to a point between the post and the edit brings the old text back, and only this line
  says the author changed it (``after_restore`` tells them, and nobody else). No ``kind``, like a
  chat line: an ``after_restore`` that predates it reads a chat line without messages.

Written only when ``DELIVERY_JOURNAL_DIR`` is set (web hosts too: deploy/OPERATIONS.md); a
failure is logged, never raised: the change is committed already.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Sequence
from datetime import UTC, datetime

from django.db import transaction

from games import engine
from games import log as game_log
from games.models import ChatMessage, Game, Move, Seat
from powergrid.state import State

from . import journal
from .journal import EditRow, Line, MoveRow

log = logging.getLogger(__name__)

#: A moves line's ``kind``: no email, the moves a process committed.
MOVES = "moves"

#: One game's change for ``moves_committed``: the game (as saved), its seats, the change's moves,
#: the engine state the first move that is not a take-back applied to (None: a game just started,
#: or not known) and the state after the last move.
Change = tuple[Game, Sequence[Seat], Sequence[Move], State | None, State | None]


def entries(moves: Sequence[Move], start: State | None, end: State | None) -> list[MoveRow]:
    """The public log rows of ``moves`` (``games.log.describe``, from spectator views only),
    replayed from ``start`` (the last move's state is ``end``: no replay for a single move).
    Without ``start`` none: the line then only says the game's move number."""
    if start is None or not moves:
        return []
    out: list[MoveRow] = []
    state = start
    before = engine.view(state, None)
    last = len(moves) - 1
    for i, m in enumerate(moves):
        if engine.is_takeback(m.action):  # its entry reads no view
            items = game_log.describe(m, before, before)
        else:
            nxt = end if i == last and end is not None else engine.apply(state, m.seat, m.action)
            after = engine.view(nxt, None)
            items = game_log.describe(m, before, after)
            state, before = nxt, after
        out += [
            (e["seq"], seat, e["source"], journal.iso(e["time"]), e["kind"], e["params"])
            for e in items
            if (seat := e["seat"]) is not None
        ]
    return out


def moves_record(game: Game, seats: Sequence[Seat], rows: list[MoveRow]) -> Line:
    return {
        "v": 1,
        "kind": MOVES,
        "at": datetime.now(UTC).isoformat(),
        "host": socket.gethostname(),
        "game": game.pk,
        "seq": game.seq,
        "map": game.map,
        "players": [(s.seat, s.user_id) for s in seats if s.user_id is not None],
        "moves": rows,
    }


def moves_committed(changes: list[Change]) -> None:
    """After the commit of the transaction this is called in: one ``moves`` line per change,
    written at once (one sync). Nothing without ``DELIVERY_JOURNAL_DIR``; never raises."""
    try:
        if not changes or journal.journal_path() is None:
            return
        # What the lines say, taken now: the objects may change after the commit (a next move).
        kept = [
            (game, game.pk, game.seq, list(seats), list(moves), start, end)
            for game, seats, moves, start, end in changes
        ]
    except Exception as exc:  # inside the move's transaction: never fail it
        log.warning("delivery journal: moves not written: %r", exc)
        return

    def write() -> None:
        try:
            recs = []
            for game, pk, seq, seats, moves, start, end in kept:
                rec = moves_record(game, seats, entries(moves, start, end))
                rec["game"], rec["seq"] = pk, seq
                recs.append(rec)
            journal.append_many(recs)
        except Exception as exc:
            ids = ", ".join(f"{k[1]}@{k[2]}" for k in kept)
            log.warning("delivery journal: moves of games %s not written: %r", ids, exc)

    transaction.on_commit(write)


def chat_record(m: ChatMessage) -> Line:
    return {
        "v": 1,
        "game": m.game_id,
        "chat": [(m.pk, m.author_id, journal.iso(m.created_at), m.text)],
    }


def chat_committed(m: ChatMessage) -> None:
    """After the commit of chat message ``m``: its chat line. Never raises."""
    try:
        if journal.journal_path() is None:
            return
        rec = chat_record(m)
    except Exception as exc:
        log.warning("delivery journal: chat message %s not written: %r", m.pk, exc)
        return

    def write() -> None:
        try:
            journal.append_many([rec])
        except Exception as exc:
            log.warning("delivery journal: chat message %s not written: %r", m.pk, exc)

    transaction.on_commit(write)


def edit_record(m: ChatMessage) -> Line:
    row: EditRow = (
        m.pk,
        m.author_id,
        journal.iso(m.created_at),
        journal.iso(m.edited_at),
        m.text,
    )
    return {"v": 1, "game": m.game_id, "edit": row}


def chat_edited(m: ChatMessage) -> None:
    """After the commit of the edit of chat message ``m`` (its new ``text`` and ``edited_at``):
    its edit's line. Never raises: the edit is the author's, the line only a record of it."""
    try:
        if journal.journal_path() is None:
            return
        rec = edit_record(m)  # the text now: a later edit in the same transaction has its own
    except Exception as exc:
        log.warning("delivery journal: edit of chat message %s not written: %r", m.pk, exc)
        return

    def write() -> None:
        try:
            journal.append_many([rec])
        except Exception as exc:
            log.warning("delivery journal: edit of chat message %s not written: %r", m.pk, exc)

    transaction.on_commit(write)
