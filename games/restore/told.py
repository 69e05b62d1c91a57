"""The email that tells a player what a recovery lost of theirs (kind ``restored``).

Written by ``services.after_restore``; built here from the row's payload, in the recipient's
language and time zone (``emails.email_build`` sets both around the builder): per game, the
move number it went back to (or, for a game lost whole, its number and map), each of their own
moves that was lost as the game's log says it ("build Essen") with its time, each of their
lost chat messages, and each of their edits of a message that was lost (the message reads as
before it again), with the text they had written. Another player's lost moves are counted, never
described (what they were is theirs to tell); another's lost messages and edits are not named
at all. Hidden information is never in it: the moves are the public log's entries.

A player not emailed (emails off, no address: the row is ``PAGE_ONLY``) reads the same words on
the game page (``page_notice``); a game lost whole has no page, so their home page shows those
(``home_notices``) until they dismiss them (``dismiss``).
"""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict, cast

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.words import cut
from games import describe, engine
from games.models import Game, Notification, Seat
from games.notifications import links
from games.notifications.contexts import RestoredContext, RestoredGame
from games.templatetags.names import isolate
from powergrid.describe import Entry
from powergrid.maps import name_in

from .journal import MoveRow

#: How long the game page shows a player what the last recovery lost (``page_notice``).
PAGE_DAYS = 14
#: ``last_error`` of a ``restored`` row not emailed (emails off, no address): the page tells.
PAGE_ONLY = "skipped: emails off or no address; told on the game page"

#: The payload's key a dismissed home notice has (the time it was dismissed).
DISMISSED = "dismissed_at"
#: The home page shows at most this many of a player's notices not dismissed.
HOME_KEPT = 3

#: A lost chat message of the reader's: time, text.
ChatLost = tuple[str | None, str]
#: A lost edit of a chat message of the reader's: the message's time, the edit's time, its text.
EditLost = tuple[str | None, str | None, str]
#: How much of a lost message's text the notice quotes.
TEXT_SHOWN = 120


def _shown(text: object) -> str:
    """A lost message's text as the notice quotes it (``config.words.cut``)."""
    return cut(str(text), TEXT_SHOWN)


class ToldGame(TypedDict):
    """One game in a ``restored`` row's payload (written by ``services.after_restore``)."""

    game: int
    seq: int | None
    lost_game: bool
    #: The game's map (its name for a game lost whole); not in rows written before it.
    map: NotRequired[str]
    moves: list[MoveRow]
    chat: list[ChatLost]
    #: The reader's edits lost (the messages kept, with their earlier text); not in rows written
    #: before it.
    edits: NotRequired[list[EditLost]]


class EarlierGame(ToldGame):
    """A game an earlier recovery told the player of, carried by a later row (``earlier``)."""

    restored_to: str


class RestoredPayload(TypedDict):
    """A ``restored`` row's payload: ``games`` what this recovery lost (the email's); and
    ``earlier``, the games earlier recoveries of the last ``PAGE_DAYS`` days told the player of
    (not in rows written before it), which only the game page shows."""

    label: str
    restored_to: str
    games: list[ToldGame]
    earlier: NotRequired[list[EarlierGame]]
    dismissed_at: NotRequired[str]


class RestoredNotice(TypedDict):
    """The game page's notice of a recovery (``templates/games/cards/restored.html``)."""

    restored_to: str
    head: str
    lines: list[str]


class HomeNotice(TypedDict):
    """The home page's notice of the games a recovery lost whole (``templates/home.html``)."""

    id: int
    restored_to: str
    on: str  # when the recovery was (the row's time): when the games were lost
    blocks: list[RestoredGame]


def _when(at: str | None) -> str:
    if not at:
        return "?"
    value = timezone.localtime(datetime.fromisoformat(at))
    return value.strftime("%Y-%m-%d %H:%M")


def _map_name(slug: str) -> str:
    try:
        return name_in(engine.map_load(slug), translation.get_language())
    except Exception:  # a map this version lacks: its slug
        return slug


def _move_text(slug: str, move: MoveRow, name: str) -> str:
    """The log's sentence of a lost move (``move``: seq, seat, source, at, kind, params)."""
    entry = cast(Entry, {"kind": move[4], "seat": move[1], "params": move[5] or {}})
    try:
        return describe.move_describe(entry, {move[1]: isolate(name)}, slug)
    except Exception:  # an entry this version cannot say: its number is enough
        return _("move %(seq)s") % {"seq": move[0]}


def _block(g: ToldGame, game: Game | None, name: str) -> tuple[str, list[str]]:
    """One game of a ``restored`` row: its head (where it went back to, or lost whole) and the
    reader's own lost moves, messages and edits, as the email and the game page say them."""
    slug = game.map if game is not None else g.get("map") or ""
    if (g.get("lost_game") or game is None) and slug:
        head = _(
            "Game #%(id)s (%(map)s) was lost: it started after the point the database was "
            "restored to."
        ) % {"id": g["game"], "map": _map_name(slug)}
    elif g.get("lost_game") or game is None:
        head = _(
            "Game #%(id)s was lost: it started after the point the database was restored to."
        ) % {"id": g["game"]}
    elif g.get("seq") is None:  # not gone back: only its chat (a message, an edit) was lost
        head = _("Game #%(id)s kept all its moves.") % {"id": g["game"]}
    else:
        head = _("Game #%(id)s went back to move %(seq)s.") % {
            "id": g["game"],
            "seq": g.get("seq") or 0,
        }
    gone = bool(g.get("lost_game") or game is None)  # no game to play the move again in
    lines = [
        (
            _("Your move “%(move)s” of %(at)s was lost with the game.")
            if gone
            else _("Your move “%(move)s” of %(at)s was lost: please play it again.")
        )
        % {"move": _move_text(slug, m, name), "at": _when(m[3])}
        for m in g.get("moves") or []
    ]
    lines += [
        _("Your chat message “%(text)s” of %(at)s was lost.")
        % {"text": _shown(c[1]), "at": _when(c[0])}
        for c in g.get("chat") or []
    ]
    lines += [
        _(
            "Your change of %(at)s to your chat message of %(posted)s was lost: the message "
            "reads as before. You had written: “%(text)s”."
        )
        % {"text": _shown(e[2]), "at": _when(e[1]), "posted": _when(e[0])}
        for e in g.get("edits") or []
    ]
    return head, lines


def restored_context(n: Notification) -> RestoredContext | None:
    """The context of a ``restored`` email (``emails.BUILDERS``)."""
    payload = n.payload or {}
    games = payload.get("games") or []
    if not games:
        return None
    user = n.recipient
    name = _name(user)
    known = {g.pk: g for g in Game.objects.filter(pk__in=[g["game"] for g in games])}
    seated = set(
        Seat.objects.filter(game_id__in=list(known), user=user).values_list("game_id", flat=True)
    )
    blocks: list[RestoredGame] = []
    for g in games:
        game = known.get(g["game"])
        head, lines = _block(g, game, name)
        url = (
            links.game_link(user=user, game_id=game.pk)
            if game is not None and game.pk in seated
            else ""
        )
        blocks.append({"head": head, "lines": lines, "url": url})
    return {
        "restored_to": _when(payload.get("restored_to")),
        "blocks": blocks,
        # "your deadline starts again" only when a game of the email went back (lost moves:
        # ``services._rearm`` restarts its awaited seats' turns); not to one who lost chat only.
        "went_back": any(
            g.get("seq") is not None and not g.get("lost_game") and g["game"] in known
            for g in games
        ),
    }


def page_notice(payload: RestoredPayload | None, *, game: Game, name: str) -> RestoredNotice | None:
    """The game page's notice from the reader's latest ``restored`` row (``games.web.reader``
    reads it, up to ``PAGE_DAYS`` old): the same words as the email, for this game only. Every
    player of a game that went back sees it there, and it is the only way a player who turned
    emails off (or has no address) is told: their row is written but never sent."""
    if not payload:
        return None
    for g in payload.get("games") or []:
        if g.get("game") == game.pk and not g.get("lost_game"):
            head, lines = _block(g, game, name)
            return {"restored_to": _when(payload.get("restored_to")), "head": head, "lines": lines}
    for e in payload.get("earlier") or []:  # an earlier recovery's, of this game
        if e.get("game") == game.pk:
            head, lines = _block(e, game, name)
            return {"restored_to": _when(e.get("restored_to")), "head": head, "lines": lines}
    return None


def _name(user: AbstractBaseUser) -> str:
    return str(getattr(getattr(user, "profile", None), "name", "") or user.get_username())


def home_notices(user: AbstractBaseUser) -> list[HomeNotice]:
    """The home page's notices (``games.web.home``): for a player told on the page only
    (``PAGE_ONLY``: emails off or no address), each ``restored`` row of theirs that names a game
    lost whole, until they dismiss it; the same words as the email, for those games only (a
    game that went back tells on its own page). One query, on the partial index of ``restored``
    rows; not limited to ``PAGE_DAYS``: a player back after a month is told all the same."""
    rows = (
        Notification.objects.filter(
            recipient_id=user.pk, kind=Notification.Kind.RESTORED, last_error=PAGE_ONLY
        )
        .exclude(payload__has_key=DISMISSED)
        .order_by("-created_at")
        .values_list("pk", "created_at", "payload")[:HOME_KEPT]
    )
    notices: list[HomeNotice] = []
    name = ""
    for pk, at, payload in rows:
        lost = [g for g in (payload or {}).get("games") or [] if g.get("lost_game")]
        if not lost:
            continue
        name = name or _name(user)
        blocks: list[RestoredGame] = []
        for g in lost:
            head, lines = _block(g, None, name)
            blocks.append({"head": head, "lines": lines, "url": ""})
        notices.append(
            {
                "id": pk,
                "restored_to": _when(payload.get("restored_to")),
                "on": _when(at.isoformat()),
                "blocks": blocks,
            }
        )
    return notices


def dismiss(user: AbstractBaseUser, pk: int) -> bool:
    """The home notice of row ``pk`` is not shown again (its payload keeps when); only the
    reader's own ``restored`` row. False: no such row of theirs."""
    row = (
        Notification.objects.filter(pk=pk, recipient_id=user.pk, kind=Notification.Kind.RESTORED)
        .values_list("payload", flat=True)
        .first()
    )
    if row is None:
        return False
    payload = {**(row or {}), DISMISSED: timezone.now().isoformat()}
    Notification.objects.filter(pk=pk).update(payload=payload)
    return True
