"""After a failover or a point-in-time restore: what the recovery lost, and the repairs.

``after_restore`` reads the delivery journal (``journal``: what the SMTP server accepted, and
``committed``: every move, chat message and chat edit committed, kept outside the database)
and compares it with the restored database, in ONE transaction, before any worker sends again:

* an outbox row the journal shows delivered but the database has still ``pending`` or
  ``sending`` (its ``sent`` mark was lost) is marked ``sent``: no email goes twice, a turn
  email for the same turn above all; a row still ``sending`` that was not delivered (its
  worker is gone) is pending again, a turn email with its turn's key back, so that no second
  row for the same turn is written beside it;
* a game whose lines (its emails', its moves') go beyond its restored move number lost those
  moves (not told: a move a lost take-back cancelled, a take-back whose moves are all lost too);
  a chat message the journal has that the database lacks was lost (told with its latest text: an
  edit of it lost with it is not told again); an edit whose text and time the database does not
  hold (the message reads as before it) was lost, told to its author only (the others see the
  old text again, as before the edit: nothing of theirs was lost); a game the journal knows and
  the database does not was lost whole: its players are the journal's (its lines' ``players``),
  so that one who turned emails off, to whom no line is addressed, is told too;
* each affected player (a player of such a game, the author of a lost message or edit) gets ONE
  email (kind ``restored``, keyed by the recovery's label: running it twice tells nobody twice),
  in their language, naming their own lost moves, messages and edits ("your move 'build Essen'
  of 14:02 was lost, please play it again"); a player with emails off (or no address) gets the
  same row, never sent: the game page shows it, or for a game lost whole their home page, until
  they dismiss it (``told.home_notices``); no push notice (those are turn notices only);
* every running game's deadlines are armed again from the restored state: a game that lost
  moves gives its awaited seats a fresh turn (they must play again), the others keep theirs
  moved on by the time the database was away (the outage is nobody's turn time); seats not
  awaited have none;
* the id sequences of the outbox, games and chat are moved past every id the journal holds: a
  new email never reuses an old one's id (its Message-ID, which mail clients deduplicate by).

Then ``check_replays`` runs (``manage.py after_restore`` prints its count).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import cast

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from games import turns
from games.models import ChatMessage, Game, Move, Notification, Seat
from games.notifications import outbox
from powergrid.describe import Params
from powergrid.takeback import TAKEBACK

from . import committed, journal
from .journal import EditRow, Line, MoveRow
from .told import (
    PAGE_DAYS,
    PAGE_ONLY,
    ChatLost,
    EarlierGame,
    EditLost,
    RestoredPayload,
    ToldGame,
)

#: A move the journal knows, by its number: seat, source, time, the log's kind and params.
MoveSeen = tuple[int, str, str | None, str, Params]


Status = Notification.Status
HUMAN = ("web", "api", "email", "plan", "sheet")  # the player's own decisions


@dataclass
class GameSeen:
    """What the journal says of one game: the highest move number an email described, the
    moves' public entries by number (the move's own, the first of its number), the seat of
    each recipient it told of a turn, its chat messages."""

    seq: int = 0
    map: str = ""
    #: The game's seats' users as the latest line with them says (a turn email's reader, too).
    players: dict[int, int] = field(default_factory=dict)  # seat -> user
    moves: dict[int, MoveSeen] = field(default_factory=dict)
    seats: dict[int, int] = field(default_factory=dict)  # seat -> user
    users: set[int] = field(default_factory=set)
    chat: dict[int, tuple[int, str | None, str]] = field(default_factory=dict)  # author, at, text
    #: Each message's latest edit the journal has (by its time): message id -> its line's row.
    edits: dict[int, EditRow] = field(default_factory=dict)


@dataclass
class Journal:
    lines: int = 0  # deliveries
    #: Lines the committing processes wrote (``committed``: moves, chat messages): no email.
    committed: int = 0
    delivered: dict[int, Line] = field(default_factory=dict)  # notification id -> line
    games: dict[int, GameSeen] = field(default_factory=dict)


def _time(at: object) -> datetime | None:
    """A line's or a message's time ``at`` (ISO, UTC); None when it has none or it is unreadable."""
    try:
        return datetime.fromisoformat(str(at)) if at else None
    except ValueError:
        return None


def _before(at: object, since: datetime | None) -> bool:
    """Whether a line's or a message's time ``at`` is before ``since`` (no time: not before)."""
    when = _time(at)
    return since is not None and when is not None and when < since


def _game_seen(g: GameSeen, rec: Line) -> None:
    """What a line with a game says of it: its move number, map, players, moves, chat, an edit
    (of a message's edits, the latest is kept)."""
    seq = rec.get("seq")
    if seq is not None:
        g.seq = max(g.seq, int(seq))
    g.map = str(rec.get("map") or g.map)
    for s, u in rec.get("players") or []:
        g.players[int(s)] = int(u)
    for m in rec.get("moves") or []:
        g.moves.setdefault(int(m[0]), m[1:])
    for c in rec.get("chat") or []:
        g.chat.setdefault(int(c[0]), c[1:])
    edit = rec.get("edit")
    if edit:
        had = g.edits.get(int(edit[0]))
        at, before = _time(edit[3]), _time(had[3]) if had else None
        if had is None or (at is not None and (before is None or at > before)):
            g.edits[int(edit[0])] = edit


def journal_load(paths: list[Path], *, since: datetime | None = None) -> Journal:
    """The journal's lines by game. A delivery (``n`` and ``kind``) was an email: its row is
    marked sent, its recipient was told of the game. A ``moves`` line or a chat line without
    ``n`` (``committed``: written by the process that committed them; an edit's line is one) is
    no email: it only says what the game had (its move number, moves, players, messages, edits).

    ``since``: when the last earlier recovery whose repairs the restored database holds ran
    (``_last_recovery``): what lines and messages before it said of the games was reconciled
    then (its losses told, its move numbers used again by the games that went on), so of
    those lines only the deliveries count (an email is never sent twice), not their moves,
    games or chat."""
    j = Journal()
    for rec in journal.read(paths):
        gid = rec.get("game")
        kind = rec.get("kind")
        if kind is None or kind == committed.MOVES:  # a chat line, or a moves line
            j.committed += "n" not in rec
            if gid is None:
                continue
            if kind is None:  # each message (each edit) says when it was written
                chat = [c for c in rec.get("chat") or [] if not _before(c[2], since)]
                seen: Line = {**rec, "chat": chat}
                edit = rec.get("edit")
                if edit and _before(edit[3], since):
                    del seen["edit"]
                if chat or "edit" in seen or since is None:
                    _game_seen(j.games.setdefault(int(gid), GameSeen()), seen)
            elif not _before(rec.get("at"), since):
                _game_seen(j.games.setdefault(int(gid), GameSeen()), rec)
            continue
        j.lines += 1
        j.delivered[int(rec["n"])] = rec
        if gid is None or _before(rec.get("at"), since):
            continue
        g = j.games.setdefault(int(gid), GameSeen())
        g.users.add(int(rec["user"]))
        _game_seen(g, rec)
        seat = rec.get("seat")
        if seat is not None and kind in ("turn", "reminder"):
            g.seats[int(seat)] = int(rec["user"])
    return j


@dataclass
class Report:
    label: str
    journal_lines: int = 0
    #: The journal's lines of committed moves and messages (web hosts' and workers').
    journal_committed: int = 0
    marked_sent: int = 0
    claims_released: int = 0
    games_behind: int = 0
    games_lost: int = 0
    moves_lost: int = 0
    chat_lost: int = 0
    #: Edits of messages the database holds with their earlier text (a message lost with its
    #: edit counts in ``chat_lost`` only).
    chat_edits_lost: int = 0
    players_told: int = 0
    #: Of those, players with emails off or no address: told on the game page only.
    told_on_page_only: int = 0
    deadlines_rearmed: int = 0
    restored_to: str = ""
    replay_mismatches: int = 0


def restore_point() -> datetime | None:
    """The restored database's last write that we can see (moves, outbox, chat), but for the
    rows a recovery's own repairs wrote (``restored``): a second run of the same recovery
    reads the same point."""
    points = [
        Move.objects.aggregate(t=Max("created_at"))["t"],
        Notification.objects.exclude(kind=Notification.Kind.RESTORED).aggregate(
            t=Max("created_at")
        )["t"],
        ChatMessage.objects.aggregate(t=Max("created_at"))["t"],
        ChatMessage.objects.aggregate(t=Max("edited_at"))["t"],
    ]
    known = [p for p in points if p is not None]
    return max(known) if known else None


def after_restore(*, paths: list[Path], label: str, now: datetime | None = None) -> Report:
    """Compare the journal with the restored database and repair (the module's docstring)."""
    now = now or timezone.now()
    with transaction.atomic():
        j = journal_load(paths, since=_last_recovery(label))
        report = Report(label=label, journal_lines=j.lines, journal_committed=j.committed)
        point = restore_point() or now
        report.restored_to = point.isoformat()
        ran = Notification.objects.filter(
            kind=Notification.Kind.RESTORED, payload__label=label
        ).exists()
        report.marked_sent = _mark_delivered(j)
        report.claims_released = _release_claims()
        _sequences_past(j)  # before any row is written here
        told = _lost(j, report)
        report.players_told, report.told_on_page_only = _tell(told, label=label, point=point)
        if not ran:  # a second run of the same recovery moves no deadline again
            report.deadlines_rearmed = _rearm(behind=set(told.behind), now=now, point=point)
        if report.players_told:
            outbox.schedule_send_pending()
    return report


def _last_recovery(label: str) -> datetime | None:
    """When the latest earlier recovery (another label) wrote its repairs, if the restored
    database holds them (its ``restored`` rows): a second restore then does not tell again
    what the first told, from journal lines written before it (an operator keeps the whole
    journal, as long as the oldest backup). A database restored to before that recovery has
    no such row: every line counts again, as it must."""
    rows = Notification.objects.filter(kind=Notification.Kind.RESTORED).exclude(
        payload__label=label
    )
    return rows.aggregate(t=Max("created_at"))["t"]


def _mark_delivered(j: Journal) -> int:
    """Rows the journal shows delivered that the database has not marked: marked, with the
    journal's delivery time. Only a row of the same kind and recipient (an id is one row)."""
    rows = Notification.objects.filter(
        pk__in=list(j.delivered), status__in=(Status.PENDING, Status.SENDING)
    ).values_list("pk", "kind", "recipient_id")
    marked = 0
    for pk, kind, user in rows:
        rec = j.delivered[pk]
        if rec.get("kind") != kind or rec.get("user") != user:
            continue
        marked += Notification.objects.filter(pk=pk).update(
            status=Status.SENT,
            sent_at=datetime.fromisoformat(rec["at"]),
            last_error="sent before the restore (delivery journal)",
            retry_at=None,
            dedupe_key=None,
        )
    return marked


def _release_claims() -> int:
    """Rows still ``sending`` that the journal does not show delivered: claimed by a worker
    that is gone (every worker is stopped during a recovery), never sent. Pending again at once,
    not after their lease; a turn email takes its turn's dedupe key back (the claim released
    it), so that a move made now adds no second email for the same turn; if a newer turn email
    holds the key, this one gives way to it (as ``sending._mark_held`` does)."""
    released = 0
    rows = Notification.objects.filter(status=Status.SENDING).values_list(
        "pk", "kind", "game_id", "recipient_id"
    )
    for pk, kind, game_id, user in list(rows):
        fields: dict[str, object] = {"status": Status.PENDING, "claimed_at": None, "retry_at": None}
        if kind == Notification.Kind.TURN and game_id is not None:
            key = outbox.turn_key(game_id, user)
            if Notification.objects.filter(dedupe_key=key).exclude(pk=pk).exists():
                Notification.objects.filter(pk=pk).update(
                    status=Status.SENT, last_error="skipped: a newer turn email replaces it"
                )
                continue
            fields["dedupe_key"] = key
        released += Notification.objects.filter(pk=pk).update(**fields)
    return released


@dataclass
class Told:
    """Per user: their lost moves and messages by game; the games that went back."""

    moves: dict[int, dict[int, list[MoveRow]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    chat: dict[int, dict[int, list[ChatLost]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    edits: dict[int, dict[int, list[EditLost]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    affected: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    behind: dict[int, int] = field(default_factory=dict)  # game -> restored seq
    lost_games: set[int] = field(default_factory=set)
    maps: dict[int, str] = field(default_factory=dict)  # game -> map (for a lost game's name)


def _lost(j: Journal, report: Report) -> Told:
    told = Told()
    if not j.games:
        return told
    games = {
        g.pk: g
        for g in Game.objects.filter(pk__in=list(j.games)).only("pk", "seq", "status", "map")
    }
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for gid, seat, user in Seat.objects.filter(game_id__in=list(games)).values_list(
        "game_id", "seat", "user_id"
    ):
        seats[gid][seat] = user
    chat_ids = {i for g in j.games.values() for i in (*g.chat, *g.edits)}
    chat_kept: dict[int, tuple[str, datetime | None]] = {
        pk: (text, edited)
        for pk, text, edited in ChatMessage.objects.filter(pk__in=chat_ids).values_list(
            "pk", "text", "edited_at"
        )
    }
    for gid, seen in j.games.items():
        game = games.get(gid)
        restored = game.seq if game is not None else -1
        # A game lost whole: its seats as the journal's latest lines say (a seat's earlier
        # player, told of a turn, is among ``seen.users`` all the same).
        who = seats.get(gid) or {**seen.seats, **seen.players}
        told.maps[gid] = game.map if game is not None else seen.map
        if game is None:
            told.lost_games.add(gid)
            report.games_lost += 1
        lost = sorted(s for s in seen.moves if s > restored)
        if seen.seq > restored or lost:
            if game is not None:
                told.behind[gid] = restored
                report.games_behind += 1
            report.moves_lost += max(len(lost), seen.seq - max(restored, 0))
            for user in set(who.values()) | seen.users:
                told.affected[user].add(gid)
            redo = _to_redo(seen.moves, lost, restored)
            for s in redo:
                seat, source = seen.moves[s][0], seen.moves[s][1]
                mover = who.get(seat)
                if mover is not None and source in HUMAN:
                    told.moves[mover][gid].append((s, *seen.moves[s]))
        _chat_lost(gid, seen, chat_kept, told, report)
    return told


def _chat_lost(
    gid: int,
    seen: GameSeen,
    kept: dict[int, tuple[str, datetime | None]],
    told: Told,
    report: Report,
) -> None:
    """Game ``gid``'s lost messages and edits, for their authors only (``kept``: the restored
    database's messages, their text and edit time). A message lost is told once, with the
    latest text the journal has of it (its edit's, if one was journaled: what its readers last
    saw), also when only its edit's line is there (the post's line was not written); an edit
    is lost when the database has the message with an earlier edit or none and another text."""
    for cid in sorted({*seen.chat, *seen.edits}):
        edit = seen.edits.get(cid)
        if cid not in kept:
            # the edit's line names the same author and time as the post's, with the new text
            author, at, text = (int(edit[1]), edit[2], edit[4]) if edit else seen.chat[cid]
            report.chat_lost += 1
            told.chat[author][gid].append((at, text))
            told.affected[author].add(gid)
            continue
        if edit is None:
            continue
        now_text, now_edited = kept[cid]
        edited = _time(edit[3])
        newer = now_edited is None or (edited is not None and now_edited < edited)
        if newer and now_text != edit[4]:
            author = int(edit[1])
            report.chat_edits_lost += 1
            told.edits[author][gid].append((edit[2], edit[3], edit[4]))
            told.affected[author].add(gid)


def _to_redo(moves: dict[int, MoveSeen], lost: list[int], restored: int) -> list[int]:
    """Of the lost moves, those to play again: not one a lost take-back cancelled (its player
    took it back), nor a take-back whose cancelled moves are all lost too (nothing of it to do
    again); a take-back of moves the restored game still has is (they stand again)."""
    cancelled: set[int] = set()
    redo: list[int] = []
    for s in lost:
        kind, params = moves[s][3], moves[s][4] or {}
        if kind == TAKEBACK:
            cancels = [int(c) for c in params.get("cancels") or []]
            cancelled.update(cancels)
            if all(c > restored for c in cancels):
                continue
        redo.append(s)
    return [s for s in redo if s not in cancelled]


def _tell(told: Told, *, label: str, point: datetime) -> tuple[int, int]:
    """One ``restored`` outbox row per affected player (keyed by the label: once): emailed, or
    for a player without emails only shown on the game page (a game lost whole: on their home
    page). Returns the rows written, and of them the page-only ones."""
    users = sorted(told.affected)
    if not users:
        return 0, 0
    from django.contrib.auth import get_user_model

    by_pk = {
        u.pk: u for u in get_user_model().objects.filter(pk__in=users).select_related("profile")
    }
    keys = {uid: f"restored:{label}:{uid}"[:200] for uid in users}
    earlier = _told_before(users)
    done = set(
        Notification.objects.filter(dedupe_key__in=list(keys.values())).values_list(
            "dedupe_key", flat=True
        )
    )
    rows = []
    for uid in users:
        user = by_pk.get(uid)
        if keys[uid] in done or user is None:
            continue
        # Emails off or no address: the row is written all the same, never sent; the game
        # page shows it (``told.page_notice``), and a game lost whole has none: the home page
        # does (``told.home_notices``), the only ways such a player learns of it.
        emailed = told_by_email(user)
        games: list[ToldGame] = []
        for gid in sorted(told.affected[uid]):
            games.append(
                {
                    "game": gid,
                    "seq": told.behind.get(gid),
                    "lost_game": gid in told.lost_games,
                    "map": told.maps.get(gid, ""),
                    "moves": told.moves.get(uid, {}).get(gid, []),
                    "chat": told.chat.get(uid, {}).get(gid, []),
                    "edits": told.edits.get(uid, {}).get(gid, []),
                }
            )
        payload: RestoredPayload = {
            "label": label,
            "restored_to": point.isoformat(),
            "games": games,
            # earlier recoveries' games that this one does not tell again (the page's only)
            "earlier": [e for e in earlier.get(uid, []) if e["game"] not in told.affected[uid]],
        }
        row = Notification(
            recipient=user,
            game_id=one_game(games),
            kind=Notification.Kind.RESTORED,
            payload=payload,
            dedupe_key=keys[uid],
        )
        if not emailed:
            row.status, row.last_error = Status.SENT, PAGE_ONLY
        rows.append(row)
    Notification.objects.bulk_create(rows)
    return len(rows), sum(r.last_error == PAGE_ONLY for r in rows)


def _told_before(users: list[int]) -> dict[int, list[EarlierGame]]:
    """Per user, the games their ``restored`` rows of the last ``PAGE_DAYS`` days told of that
    went back (newest first, a game once), each with its recovery's point: a new row carries
    them (``earlier``), so that the game page, which reads a player's latest row, still shows
    an earlier recovery's notice of another game (for a player with emails off the page is the
    only way they are told); the email says only the new row's ``games``. One query."""
    since = timezone.now() - timedelta(days=PAGE_DAYS)
    rows = Notification.objects.filter(
        kind=Notification.Kind.RESTORED, recipient_id__in=users, created_at__gte=since
    ).order_by("-created_at", "-id")
    out: dict[int, list[EarlierGame]] = {}
    for uid, payload in rows.values_list("recipient_id", "payload"):
        kept = out.setdefault(uid, [])
        seen = {e["game"] for e in kept}
        at = str((payload or {}).get("restored_to") or "")
        for g in (payload or {}).get("games") or []:
            if g.get("game") not in seen and not g.get("lost_game"):
                kept.append(cast(EarlierGame, {**g, "restored_to": at}))
                seen.add(g["game"])
        for e in (payload or {}).get("earlier") or []:
            if e.get("game") not in seen:
                kept.append(cast(EarlierGame, e))
                seen.add(e["game"])
    return out


def told_by_email(user: User) -> bool:
    """Every player with an address who has not turned emails off: a digest reader too (this
    is no turn news: it says their move is gone)."""
    mode = getattr(getattr(user, "profile", None), "notification_mode", "every_turn")
    return bool(user.email) and mode != "none"


def one_game(games: list[ToldGame]) -> int | None:
    """The row's game when it is about one game that still exists (else about several)."""
    if len(games) == 1 and not games[0]["lost_game"]:
        return int(games[0]["game"])
    return None


def _rearm(*, behind: set[int], now: datetime, point: datetime) -> int:
    """Every running game's deadlines from the restored state (the module's docstring)."""
    outage = max(timedelta(0), now - point)
    changed: list[Seat] = []
    for game in Game.objects.filter(status=Game.Status.RUNNING).prefetch_related(
        "seats__user__profile"
    ):
        awaited = set(game.to_act or [])
        for seat in game.seats.all():
            before = (seat.deadline, seat.reminder_at)
            if seat.seat not in awaited:
                seat.deadline = seat.reminder_at = None
            elif seat.bot_controlled:
                seat.deadline, seat.reminder_at = now, None
            elif game.pk in behind or seat.deadline is None:
                seat.deadline, seat.reminder_at = turns.seat_clock(game, seat, now=now)
            else:
                seat.deadline = max(seat.deadline + outage, now)
                if seat.reminder_at is not None:
                    seat.reminder_at = max(seat.reminder_at + outage, now)
            if (seat.deadline, seat.reminder_at) != before:
                changed.append(seat)
    Seat.objects.bulk_update(changed, ["deadline", "reminder_at"], batch_size=500)
    return len(changed)


def _sequences_past(j: Journal) -> None:
    """Move the id sequences past every id the journal holds (PostgreSQL)."""
    if connection.vendor != "postgresql":
        return
    top = {
        Notification: max(j.delivered, default=0),
        Game: max(j.games, default=0),
        ChatMessage: max((i for g in j.games.values() for i in (*g.chat, *g.edits)), default=0),
    }
    with connection.cursor() as cur:
        for model, highest in top.items():
            table = model._meta.db_table
            cur.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" GREATEST((SELECT COALESCE(max(id), 0) FROM {table}), %s) + 1, false)",
                [highest],
            )
