"""The delivery journal: every email the SMTP server accepted, one JSON line, outside the database.

The outbox and its ``sent`` marks live in the database, so a restored database cannot say what
its players were already told: a move committed after the restore point may have been described
in a turn email that was delivered. The sending worker therefore appends a line here right
after the SMTP server's 250 to DATA (``delivered``, one call from the sender), before the row is
marked ``sent``: the journal is never behind the database. ``manage.py after_restore`` compares
it with the restored database.

One file per host, ``<DELIVERY_JOURNAL_DIR>/delivered-<host>.jsonl``; every worker process of
the host appends to it with ``O_APPEND`` (one ``write`` per line: lines never interleave), and
syncs it to disk after each line (``DELIVERY_JOURNAL_SYNC``), so it survives the host's crash
too. Keep the folder on the worker hosts' own disks, not the database's, and keep the files at
least as long as the oldest backup that may be restored (deploy/OPERATIONS.md).

A line (``v`` 1): ``at`` (delivery, UTC), ``host``, ``n`` (the notification's id), ``mid``
(its Message-ID), ``kind``, ``user``, ``lang``, ``game``, ``seq`` (the game's move number the
email described), ``seat`` (a turn email's or reminder's seat), ``turn`` (a turn email's: the
move number of the turn it asks for), ``map`` and ``players`` (the
game's map and its seats' users, ``[seat, user]``: public, as the game page shows them; from the
seats the worker read to build the email, no query; missing from lines written before them),
``moves`` (the game's public
log entries of the last ``MOVES_KEPT`` moves as the email saw them: seq, seat, source, time,
kind, params; public, as the game page shows them: no hidden information; from the worker's
log cache, so the line never waits for the database). A turn email's line is followed by a
line of the game's last chat messages (``n``, ``game``, ``chat``: id, author, time, text, as
the email carries them), read from the database: best effort, after the delivery's line.
A failure to write is logged, never raised: an email is not held back for the journal.

The same files hold the lines of the moves and chat messages committed, and of each chat
message's edit (``committed``: written by the process that committed them, web hosts included;
no ``n``: no email).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TypedDict

from django.conf import settings
from django.core.mail import EmailMessage

from games import log as game_log
from games.models import ChatMessage, Game, Notification
from powergrid.describe import Params

log = logging.getLogger(__name__)

#: The moves a line carries: the last few of the game (a turn email lists those since the
#: recipient's last move, at most 12; this covers every seat's last turn in a 6-player game).
MOVES_KEPT = 12
CHAT_KEPT = 10
#: The kinds whose lines carry the game's moves and chat (those that describe the game).
DESCRIBING = ("turn", "reminder", "game_over", "timeout", "bot_took_over", "takeback")

#: A move as a line keeps it: seq, seat, source, time, the log entry's kind and params.
MoveRow = tuple[int, int, str, str | None, str, Params]
#: A chat message: id, author, time, text.
ChatRow = tuple[int, int, str | None, str]
#: A chat message's edit: id, author, the message's time, the edit's time, the new text.
EditRow = tuple[int, int, str | None, str | None, str]


class Line(TypedDict, total=False):
    """One line of the journal (JSON); a chat line has only ``v``, ``n`` (a turn email's; none:
    a message's own, ``committed``), ``game``, ``chat``; an edit's line (``committed``) only
    ``v``, ``game``, ``edit``; a ``moves`` line (``committed``) no ``n``, ``mid``, ``user``,
    ``lang``, ``seat``."""

    v: int
    at: str
    host: str
    n: int
    mid: str
    kind: str
    user: int
    lang: str
    game: int | None
    seq: int | None
    seat: int | None
    turn: int | None
    map: str
    players: list[tuple[int, int]]
    moves: list[MoveRow]
    chat: list[ChatRow]
    edit: EditRow


_lock = threading.Lock()
_fd: int | None = None
_path: Path | None = None


def journal_dir() -> Path | None:
    folder = str(getattr(settings, "DELIVERY_JOURNAL_DIR", "") or "")
    return Path(folder) if folder else None


def journal_path() -> Path | None:
    folder = journal_dir()
    if folder is None:
        return None
    return folder / f"delivered-{socket.gethostname()}.jsonl"


def _open() -> int | None:
    global _fd, _path
    path = journal_path()
    if path is None:
        return None
    if _fd is not None and _path == path and os.getpid() == _opened_by[0]:
        return _fd
    path.parent.mkdir(parents=True, exist_ok=True)
    _fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    _path = path
    _opened_by[0] = os.getpid()
    return _fd


_opened_by = [0]  # the process that opened _fd (a forked worker child opens its own)


def writable() -> None:
    """Open this host's journal for appending as the next line would (raises ``OSError`` when
    this process cannot: ``games.health``'s journal check)."""
    with _lock:
        _open()


def iso(value: datetime | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    return str(value)


def record_of(n: Notification, message: EmailMessage) -> Line:
    """The journal line for notification ``n`` delivered as ``message``."""
    game = getattr(n, "game", None) if n.game_id is not None else None
    payload = n.payload or {}
    rec: Line = {
        "v": 1,
        "at": datetime.now(UTC).isoformat(),
        "host": socket.gethostname(),
        "n": n.pk,
        "mid": str(message.extra_headers.get("Message-ID", "")),
        "kind": str(n.kind),
        "user": n.recipient_id,
        "lang": getattr(getattr(n.recipient, "profile", None), "language", "en") or "en",
        "game": n.game_id,
        "seq": game.seq if game is not None else None,
        "seat": payload.get("seat"),
    }
    if str(n.kind) == "turn":
        # The move number of the turn the email asks for (``seq`` is the game's when it was
        # sent, later when the email went late): one turn, one email, whatever the lag.
        rec["turn"] = payload.get("seq")
    seats = game.seats_read if game is not None else None
    if game is not None and seats is not None:
        # Who plays it, so that a game lost whole is told to its players whose emails are
        # off too (``after_restore``): no line of the journal is addressed to them.
        rec["map"] = game.map
        rec["players"] = [(s.seat, s.user_id) for s in seats]
    if game is not None and str(n.kind) in DESCRIBING:
        moves = _moves(game)
        if moves is not None:
            rec["moves"] = moves
    return rec


def _moves(game: Game) -> list[MoveRow] | None:
    """The last moves' public entries, from this process's log cache (the email was built
    from it): no query, so a line is written even while the database is away."""
    items = game_log.entries_cached(game)
    if items is None:
        return None
    floor = game.seq - MOVES_KEPT
    return [
        (e["seq"], seat, e["source"], iso(e["time"]), e["kind"], e["params"])
        for e in items
        if e["seq"] > floor and (seat := e["seat"]) is not None
    ]


def chat_record_of(n: Notification) -> Line:
    """A second line for a turn email: the game's last chat messages (one query). Best
    effort: written after the delivery's own line, which never waits for the database."""
    rows = (
        ChatMessage.objects.filter(game_id=n.game_id or 0, hidden=False)
        .order_by("-id")
        .values_list("id", "author_id", "created_at", "text")[:CHAT_KEPT]
    )
    chat: list[ChatRow] = [(i, a, iso(at), text) for i, a, at, text in reversed(list(rows))]
    return {"v": 1, "n": n.pk, "game": n.game_id, "chat": chat}


def _append(rec: Line) -> None:
    append_many([rec])


def append_many(recs: list[Line]) -> None:
    """Append ``recs``, one line each, in one ``write`` and one sync (raises on a failure:
    the callers log it)."""
    if not recs:
        return
    data = "".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in recs)
    with _lock:
        fd = _open()
        if fd is None:
            return
        os.write(fd, data.encode())
        if getattr(settings, "DELIVERY_JOURNAL_SYNC", True):
            os.fdatasync(fd)


def delivered(n: Notification, message: EmailMessage) -> None:
    """Append the line of a delivered email (called right after the SMTP server accepted it),
    then, for an email that carries the game's chat, the chat's line. Never raises: the email
    is out, and losing a line costs less than a stuck sender."""
    if journal_path() is None:
        return
    try:
        _append(record_of(n, message))
    except Exception as exc:
        log.warning("delivery journal: notification %s not written: %r", n.pk, exc)
        return
    if n.game_id is not None and str(n.kind) in ("turn", "reminder"):
        try:
            _append(chat_record_of(n))
        except Exception as exc:  # the database away: the chat is not known, the email is
            log.warning("delivery journal: chat of notification %s not written: %r", n.pk, exc)


def read(paths: list[Path]) -> Iterator[Line]:
    """Every line of the journal files ``paths`` (files, or folders of ``delivered-*.jsonl``),
    oldest first per file. A torn last line (the host died mid-write) is skipped."""
    files: list[Path] = []
    for p in paths:
        files += sorted(p.glob("delivered-*.jsonl")) if p.is_dir() else [p]
    for f in files:
        with f.open(encoding="utf-8") as fh:
            for line in fh:
                try:
                    rec: Line = json.loads(line)
                except ValueError:
                    log.warning("delivery journal %s: a torn line skipped", f)
                    continue
                if isinstance(rec, dict) and rec.get("v") == 1:
                    yield rec
