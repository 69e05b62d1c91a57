"""What the emails are made of, shared by the builders of every kind (``builders``): a batch's
shared reads (``Prefetch``, ``prefetch``), the game as the recipient may see it (names, view,
summary, the move log's lines since their last move, the chat since then), and what a turn
email offers (one-tap links, the reply address, examples of a reply).

Content comes only from ``games.selectors`` and the public move log: never another player's
money, the deck, the removed plants or the seed."""

from __future__ import annotations

import zoneinfo
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Case, JSONField, Max, OuterRef, Q, QuerySet, Subquery, When
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from config.words import aside
from games import describe, engine, log, notes, selectors
from games.chat import selectors as chat_selectors
from games.inbox import onetap
from games.inbox.tokens import reply_address
from games.models import (
    ChatMessage,
    ChatMute,
    Game,
    GameNote,
    Move,
    Notification,
    Seat,
    SheetAnswer,
)
from games.services.errors import ServiceError
from games.shapes import State
from games.sheets.asking import sheets_on
from games.sheets.inbox import sheet_waits as inbox_sheet_waits
from games.sheets.services import UNREAD, Unread
from games.sheets.shapes import Sheet as SheetDoc
from games.templatetags.names import isolate
from powergrid.helpers import Refuel
from powergrid.maps import name_in

from . import contexts, facts, links

Kind = Notification.Kind

MAX_MOVES_LISTED = 25


def format_when(value: datetime | None, zone: zoneinfo.ZoneInfo) -> str:
    """A deadline in the recipient's zone and language, with the zone's name: abbreviation and
    key ("CET, Europe/Berlin"), or the key once when they are the same ("UTC", not "UTC, UTC")."""
    if value is None:
        return ""
    local = timezone.localtime(value, zone)
    abbr = local.tzname()
    label = zone.key if abbr in (None, zone.key) else f"{abbr}, {zone.key}"
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({label})"


@dataclass
class Prefetch:
    """What a batch of rows shares, read once per batch (``prefetch``) instead of once per email.

    ``fresh_seats``: the games' seats (``seats_read``) were read after the claim, so their
    deadlines and counters are current (no ``refresh_from_db`` per email). ``last_own`` maps
    (game, seat) to the seq of that seat's last human move. ``views`` keeps each (game, seat)'s
    view.
    """

    fresh_seats: bool = False
    last_own: dict[tuple[int, int], int] | None = None
    views: dict[tuple[int, int | None], State] = field(default_factory=dict)
    #: (game, seat) -> time of that seat's last own move; game -> its recent chat messages;
    #: user -> whom they muted (read once per batch, for the chat lines of turn emails).
    last_own_at: dict[tuple[int, int], datetime] = field(default_factory=dict)
    chat: dict[int, list[ChatMessage]] | None = None
    mutes: dict[int, set[int]] = field(default_factory=dict)
    names: dict[int, dict[int, str]] = field(default_factory=dict)
    #: (game, user) -> the user's private note (games.notes), for their turn emails; None: not
    #: read for this batch.
    notes: dict[tuple[int, int], str] | None = None
    #: (game, seat) -> the seat's latest answer to the game's round sheet (``games.sheets``; its
    #: round may be a past one), for its turn email; None: not read for this batch.
    sheets: dict[tuple[int, int], SheetDoc] | None = None


HUMAN_SOURCES = ("web", "api", "email")


def prefetch(rows: list[Notification]) -> Prefetch:
    """Read what ``rows`` need in a few queries: seats (with users and profiles) of every game and
    the turn emails' recipients' notes and sheet answers with them (``_seats``), the last human
    move of each recipient's seat, the chat and the mutes. Each row's ``game`` becomes one
    shared instance per game (so a game's view is built once per batch)."""
    last_own: dict[tuple[int, int], int] = {}
    pf = Prefetch(fresh_seats=True, last_own=last_own)
    games: dict[int, Game] = {}
    for n in rows:
        if n.game_id is not None and n.game is not None:
            n.game = games.setdefault(n.game_id, n.game)
    if not games:
        return pf
    # Only turn notices and reminders list moves (and carry the note and the round sheet); a
    # sheets game's game-started email carries round 1's sheet.
    listing = {n.game_id for n in rows if n.kind in (Kind.TURN, Kind.REMINDER) and n.game_id}
    recipients = {n.recipient_id for n in rows if n.game_id in listing}
    asking = {
        (n.game_id, n.recipient_id)
        for n in rows
        if n.game_id is not None
        and (n.game_id in listing or (n.kind == Kind.GAME_STARTED and sheets_on(games[n.game_id])))
    }
    by_game: dict[int, list[Seat]] = {gid: [] for gid in games}
    notes: dict[tuple[int, int], str] = {}
    sheets: dict[tuple[int, int], SheetDoc] = {}
    for s in _seats(list(games), listing, recipients, asking):
        s.game = games[s.game_id]
        by_game[s.game_id].append(s)
        note, sheet = getattr(s, "own_note", None), getattr(s, "own_sheet", None)
        if note:  # read for a recipient's own seat only
            notes[(s.game_id, s.user_id)] = note
        if sheet is not None:
            sheets[(s.game_id, s.seat)] = sheet
    for gid, game in games.items():
        game.seats_read = by_game[gid]
    if asking:
        pf.sheets = sheets
    if listing:
        pf.notes = notes
        for gid, seat_no, seq, at in (
            Move.objects.filter(game_id__in=list(listing), source__in=HUMAN_SOURCES)
            .values("game_id", "seat")
            .annotate(last=Max("seq"), at=Max("created_at"))
            .values_list("game_id", "seat", "last", "at")
        ):
            last_own[(gid, seat_no)] = seq
            pf.last_own_at[(gid, seat_no)] = at
        # The chat lines: the games' recent messages and the recipients' mutes, once.
        since = timezone.now() - timedelta(days=CHAT_DAYS)
        pf.chat = {gid: [] for gid in listing}
        for m in (
            ChatMessage.objects.filter(
                game_id__in=list(listing), hidden=False, created_at__gt=since
            )
            .select_related("author__profile")
            .order_by("id")
        ):
            pf.chat[m.game_id].append(m)
        for uid, muted in ChatMute.objects.filter(user_id__in=recipients).values_list(
            "user_id", "muted_id"
        ):
            pf.mutes.setdefault(uid, set()).add(muted)
    return pf


def _seats(
    game_ids: list[int],
    listing: set[int],
    recipients: set[int],
    asking: Collection[tuple[int, int]] = (),
) -> QuerySet[Seat]:
    """The games' seats with users and profiles; a turn email's recipient's seat with their
    own rows beside it in the same statement (``own_note``: their private note on the game;
    ``own_sheet``: the seat's latest answer to the round sheet, for the recipients of
    ``asking``: (game, user) of a turn email or a sheets game's game-started email), so that
    neither is read once per email. Nobody else's note or sheet is read."""
    qs = Seat.objects.filter(game_id__in=game_ids).select_related("user__profile")
    if not listing and not asking:
        return qs.order_by("game_id", "seat")
    if listing:
        theirs = Q(game_id__in=list(listing), user_id__in=list(recipients))
        note = GameNote.objects.filter(game_id=OuterRef("game_id"), user_id=OuterRef("user_id"))
        qs = qs.annotate(
            own_note=Case(When(theirs, then=Subquery(note.values("text")[:1])), default=None)
        )
    if asking:
        # (Games and users of the pairs: a seat it adds is still its recipient's own.)
        asked = Q(
            game_id__in=sorted({g for g, _u in asking}), user_id__in=sorted({u for _g, u in asking})
        )
        sheet = SheetAnswer.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat"))
        qs = qs.annotate(
            own_sheet=Case(
                When(asked, then=Subquery(sheet.order_by("-round").values("data")[:1])),
                default=None,
                output_field=JSONField(),
            )
        )
    return qs.order_by("game_id", "seat")


def sheet_waits(game: Game, seat: Seat, pf: Prefetch | None) -> bool:
    """``games.sheets.inbox.sheet_waits`` from the batch's read of the seat's latest answer
    (no query per email)."""
    return inbox_sheet_waits(game, seat, sheet_answer(game, seat, pf))


def sheet_answer(game: Game, seat: Seat, pf: Prefetch | None) -> SheetDoc | Unread | None:
    """The seat's latest sheet answer as the batch read it (``UNREAD`` without a batch's read:
    ``games.sheets.inbox.sheet_mail`` reads it)."""
    if pf is None or pf.sheets is None:
        return UNREAD
    return pf.sheets.get((game.pk, seat.seat))


def private_note(game: Game, user: User, pf: Prefetch | None) -> str:
    """The recipient's own note on ``game`` (from the batch's read when there is one)."""
    if pf is not None and pf.notes is not None:
        return pf.notes.get((game.pk, user.pk), "")
    return notes.note_of(game, user)


# -- describing the game --------------------------------------------------------------------------


def map_name(slug: str) -> str:
    try:
        m = engine.map_load(slug)
    except Exception:
        return slug
    return name_in(m, translation.get_language())


def seat_names(game: Game, pf: Prefetch | None = None) -> dict[int, str]:
    if pf is not None and game.pk in pf.names:
        return pf.names[game.pk]
    names = {s.seat: selectors.seat_name(s) for s in selectors.game_seats(game)}
    if pf is not None:
        pf.names[game.pk] = names
    return names


def view_for(game: Game, user: User, seat_no: int | None, pf: Prefetch | None) -> State:
    """``selectors.game_state_for`` for the recipient (once per game and seat in a batch)."""
    if pf is None:
        return selectors.game_state_for(game, user)
    key = (game.pk, seat_no)
    if key not in pf.views:
        pf.views[key] = selectors.game_state_for(game, user)
    return pf.views[key]


def refresh_seat(seat: Seat, fields: list[str], pf: Prefetch | None) -> None:
    if pf is None or not pf.fresh_seats:
        seat.refresh_from_db(fields=fields)


def game_context(n: Notification, seat: Seat | None) -> contexts.GameContext:
    game = n.game
    assert game is not None
    ctx: contexts.GameContext = {
        "game": game,
        "game_id": game.pk,
        "map_name": map_name(game.map),
        "game_url": links.game_link(user=n.recipient, game_id=game.pk),
        "seat": seat,
    }
    return ctx


def moves_since(
    game: Game, seat_no: int, names: dict[int, str], pf: Prefetch | None = None
) -> tuple[list[str], int]:
    """The move log's lines since the seat's last own move (its last ``MAX_MOVES_LISTED`` moves),
    and how many earlier moves are left out: the same sentences as the game page's log."""
    if pf is not None and pf.last_own is not None:
        last_own = pf.last_own.get((game.pk, seat_no), 0)
    else:
        last_own = (
            Move.objects.filter(game=game, seat=seat_no, source__in=HUMAN_SOURCES)
            .order_by("-seq")
            .values_list("seq", flat=True)
            .first()
        ) or 0
    first_listed = max(last_own, game.seq - MAX_MOVES_LISTED)
    lines = [log_line(game, e, names) for e in log.entries(game) if e["seq"] > first_listed]
    return lines, first_listed - last_own


def move_line(game: Game, payload: Mapping[str, object], names: dict[int, str]) -> str:
    """The log's line of the move ``payload`` names (its seq), as the page shows it: the first
    entry of the seq, the move's own (a sealed answer's line says only that it was given)."""
    for e in log.entries(game):
        if e["seq"] == payload.get("seq"):
            return log_line(game, e, names)
    return ""


def log_line(game: Game, entry: log.Item, names: dict[int, str]) -> str:
    """The sentence the game page's log has, each name between Unicode's isolates as there: a
    right-to-left name must not reorder the sentence (in the text part and the HTML alike)."""
    isolated = {seat: isolate(name) for seat, name in names.items()}
    text = describe.move_describe(entry, isolated, game.map)
    note = describe.entry_note(entry)
    return f"{text} {aside(note)}" if note else text


def state_summary(view: State, names: dict[int, str], seat_no: int | None) -> contexts.StateSummary:
    """Where the game is and its facts (``facts``), from the recipient's view alone."""
    return {
        "round": view["round"],
        "step": view["step"],
        "phase": describe.phase_describe(view["phase"]),
        **facts.facts(view, names, seat_no),
    }


# -- one builder per kind -------------------------------------------------------------------------


def recipient_seat(n: Notification) -> Seat | None:
    if n.game is None:
        return None
    return selectors.seat_of(n.game, n.recipient)


CHAT_IN_EMAIL = 10
CHAT_DAYS = 14


def chat_since(
    game: Game, seat: Seat, user: User, pf: Prefetch | None = None
) -> list[contexts.ChatLine]:
    """The others' chat messages since the seat's last own move: they reach the player with the
    next turn email, never an email per message. In a batch, from what ``prefetch`` read."""
    if pf is not None and pf.chat is not None:
        last = pf.last_own_at.get((game.pk, seat.seat))
        muted = pf.mutes.get(user.pk, set())
        rows = [
            m
            for m in pf.chat.get(game.pk, [])
            if (last is None or m.created_at > last) and m.author_id not in muted
        ][-CHAT_IN_EMAIL:]
    else:
        last = (
            Move.objects.filter(game=game, seat=seat.seat, source__in=HUMAN_SOURCES)
            .order_by("-seq")
            .values_list("created_at", flat=True)
            .first()
        )
        try:
            rows = chat_selectors.messages_for(game, user, since=last, limit=CHAT_IN_EMAIL)
        except ServiceError:
            return []
    return [
        {"author": chat_selectors.author_name(m), "text": m.text}
        for m in rows
        if m.author_id != user.pk
    ]


def taps(game: Game, seat: Seat, legal: Sequence[Mapping[str, object]]) -> list[contexts.Tap]:
    """One-tap links for the obvious choices now (each opens a confirmation page)."""
    hours = max(24.0, float(game.options.get("turn_hours", 24)) * 2)
    fuel: dict[str, Refuel] = {}
    if any(e.get("type") == "buy_resources" for e in legal):
        fuel = onetap.fuel_offers(selectors.game_engine_state(game), seat.seat)
    labels = {
        **{c: describe.fuel_label(plan, more=c == "buy_fuel_more") for c, plan in fuel.items()},
        "pass_bid": _("Pass this auction"),
        "pass_auction": _("Pass: no plant this round"),
        "power": _("Power with the best choice"),
        "buy_nothing": _("Buy no resources"),
        "build_nothing": _("Build nothing"),
    }
    return [
        {
            "label": labels[c],
            "url": onetap.link(
                game=game, seat=seat.seat, user_id=seat.user_id, choice=c, hours=hours
            ),
        }
        for c in onetap.choices_for(legal, fuel)
    ]


def reply_to(game: Game, seat: Seat) -> str | None:
    """A reply address bound to this seat and position (None when replies are off)."""
    return reply_address(
        game_id=game.pk,
        seat=seat.seat,
        seq=game.seq,
        user_id=seat.user_id,
        hours=max(24.0, float(game.options.get("turn_hours", 24)) * 2),
    )


#: What a reply may say for each action type offered (``games/inbox/parse.py``'s language),
#: English and Japanese (the parser reads both in any email). A move that names a plant, an
#: amount or a city is written from what is offered now (``_example``): an example naming a
#: plant that is not in the market would be refused if copied.
_WORDS = {
    "en": {
        "pass": "pass",
        "power": "power",
        "choose": "choose {n} bid {bid}",
        "bid": "bid {bid}",
        "discard": "discard {n}",
        "buy": "buy {k} {resource}",
        "build": "build {city}",
    },
    "ja": {
        "pass": "パス",
        "power": "発電",
        "choose": "選択 {n} {bid}",
        "bid": "入札 {bid}",
        "discard": "捨てる {n}",
        "buy": "購入 {resource}{k}",
        "build": "建設 {city}",
    },
}
_RESOURCE_WORDS = {
    "en": {"coal": "coal", "oil": "oil", "garbage": "garbage", "uranium": "uranium"},
    "ja": {"coal": "石炭", "oil": "石油", "garbage": "ゴミ", "uranium": "ウラン"},
}


def _example(entry: Mapping[str, Any], lang: str, map_slug: str) -> str | None:
    """What a reply may say for one offered move, with a plant, amount or city offered now."""
    words = _WORDS[lang]
    kind = str(entry.get("type"))
    if kind in ("pass_auction", "pass_bid"):
        return words["pass"]
    if kind == "power":
        return words["power"]
    if kind == "choose_plant":
        plants = [p for p in entry.get("plants") or [] if isinstance(p, Mapping)]
        if not plants:
            return None
        first = plants[0]
        return words["choose"].format(n=first["number"], bid=first.get("min_bid", first["number"]))
    if kind in ("bid", "seal_bid"):
        return words["bid"].format(bid=entry.get("min"))
    if kind == "discard_plant":
        own = list(entry.get("plants") or [])
        return words["discard"].format(n=own[0]) if own else None
    if kind == "buy_resources":
        most = entry.get("max") or {}
        have = [r for r in ("coal", "oil", "garbage", "uranium") if most.get(r)]
        if not have:
            return None
        return words["buy"].format(k=1, resource=_RESOURCE_WORDS[lang][have[0]])
    if kind == "build":
        costs = entry.get("cities") or {}
        if not costs:
            return None
        slug = min(costs, key=lambda c: (costs[c], c))
        city = engine.map_load(map_slug).cities.get(slug)
        return words["build"].format(city=name_in(city, "ja") if lang == "ja" and city else slug)
    return None


def reply_examples(legal: Sequence[Mapping[str, object]], map_slug: str) -> list[str]:
    """Examples of what a reply may say now, in the recipient's language, each naming what is
    offered now (a plant in the market, the lowest bid, a city one may build in)."""
    lang = "ja" if (translation.get_language() or "")[:2] == "ja" else "en"
    out: list[str] = []
    for entry in legal:
        example = _example(entry, lang, map_slug)
        if example and example not in out:
            out.append(example)
    return out
