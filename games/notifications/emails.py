"""Building one email (text + HTML) for one outbox row, in the recipient's language and time zone.

Content comes only from ``games.selectors`` (``game_state_for`` = ``powergrid.view`` for the
recipient's seat, the public game description, the public move log): never another player's money
(except in the final results, which the engine makes public at the end), the deck, the removed
plants or the seed.

``email_build`` returns ``None`` when the row is no longer worth sending (a turn notice for a turn
the player has already played, a digest with nothing in it).
"""

from __future__ import annotations

import hashlib
import zoneinfo
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import formatdate
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F, Max, Q
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from accounts.zones import user_zone
from config.words import aside
from games import describe, engine, log, selectors, takebacks
from games.chat import selectors as chat_selectors
from games.fastpath import rendering
from games.inbox import onetap
from games.inbox.tokens import reply_address
from games.mailevents import verp
from games.models import (
    ChatMessage,
    ChatMute,
    Game,
    Invitation,
    Move,
    Notification,
    Seat,
    TakebackRequest,
)
from games.services.errors import ServiceError
from games.shapes import State
from games.templatetags.names import isolate, join_names
from games.web.errors import error_text
from powergrid.maps import name_in

from . import links

Kind = Notification.Kind
MAX_MOVES_LISTED = 25


def _language(user: Any) -> str:
    return getattr(getattr(user, "profile", None), "language", "en") or "en"


def format_when(value: datetime | None, zone: zoneinfo.ZoneInfo) -> str:
    """A deadline in the recipient's zone and language, with the zone's name: abbreviation and
    key ("CET, Europe/Berlin"), or the key once when they are the same ("UTC", not "UTC, UTC")."""
    if value is None:
        return ""
    local = timezone.localtime(value, zone)
    abbr = local.tzname()
    label = zone.key if abbr in (None, zone.key) else f"{abbr}, {zone.key}"
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({label})"


def message_id(n: Notification) -> str:
    """Stable across attempts: a resend carries the same Message-ID."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    digest = hashlib.sha256(f"{settings.SECRET_KEY}:{n.pk}".encode()).hexdigest()[:16]
    return f"<notification-{n.pk}.{digest}@{domain}>"


# -- a batch's shared reads ------------------------------------------------------------------------


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
    last_own_at: dict[tuple[int, int], Any] = field(default_factory=dict)
    chat: dict[int, list[Any]] | None = None
    mutes: dict[int, set[int]] = field(default_factory=dict)
    names: dict[int, dict[int, str]] = field(default_factory=dict)


HUMAN_SOURCES = ("web", "api", "email")


def prefetch(rows: list[Notification]) -> Prefetch:
    """Read what ``rows`` need in a few queries: seats (with users and profiles) of every game, the
    last human move of each recipient's seat. Each row's ``game`` becomes one shared instance
    per game (so a game's view is built once per batch)."""
    last_own: dict[tuple[int, int], int] = {}
    pf = Prefetch(fresh_seats=True, last_own=last_own)
    games: dict[int, Game] = {}
    for n in rows:
        if n.game_id is not None and n.game is not None:
            n.game = games.setdefault(n.game_id, n.game)
    if not games:
        return pf
    by_game: dict[int, list[Seat]] = {gid: [] for gid in games}
    for s in (
        Seat.objects.filter(game_id__in=list(games))
        .select_related("user__profile")
        .order_by("game_id", "seat")
    ):
        s.game = games[s.game_id]
        by_game[s.game_id].append(s)
    for gid, game in games.items():
        game.seats_read = by_game[gid]
    # Only turn notices and reminders list moves.
    listing = {n.game_id for n in rows if n.kind in (Kind.TURN, Kind.REMINDER) and n.game_id}
    if listing:
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
        recipients = {n.recipient_id for n in rows if n.game_id in listing}
        for uid, muted in ChatMute.objects.filter(user_id__in=recipients).values_list(
            "user_id", "muted_id"
        ):
            pf.mutes.setdefault(uid, set()).add(muted)
    return pf


# -- describing the game --------------------------------------------------------------------------


def map_name(slug: str) -> str:
    try:
        m = engine.map_load(slug)
    except Exception:
        return slug
    return name_in(m, translation.get_language())


def _names(game: Game, pf: Prefetch | None = None) -> dict[int, str]:
    if pf is not None and game.pk in pf.names:
        return pf.names[game.pk]
    names = {s.seat: selectors.seat_name(s) for s in selectors.game_seats(game)}
    if pf is not None:
        pf.names[game.pk] = names
    return names


def _view(game: Game, user: Any, seat_no: int | None, pf: Prefetch | None) -> State:
    """``selectors.game_state_for`` for the recipient (once per game and seat in a batch)."""
    if pf is None:
        return selectors.game_state_for(game, user)
    key = (game.pk, seat_no)
    if key not in pf.views:
        pf.views[key] = selectors.game_state_for(game, user)
    return pf.views[key]


def _refresh_seat(seat: Seat, fields: list[str], pf: Prefetch | None) -> None:
    if pf is None or not pf.fresh_seats:
        seat.refresh_from_db(fields=fields)


def _game_context(n: Notification, seat: Seat | None) -> dict[str, Any]:
    game = n.game
    assert game is not None
    ctx: dict[str, Any] = {
        "game": game,
        "game_id": game.pk,
        "map_name": map_name(game.map),
        "game_url": links.game_link(user=n.recipient, game_id=game.pk),
        "seat": seat,
    }
    return ctx


def _moves_since(
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
    lines = [_log_line(game, e, names) for e in log.entries(game) if e["seq"] > first_listed]
    return lines, first_listed - last_own


def _move_line(game: Game, payload: dict[str, Any], names: dict[int, str]) -> str:
    """The log's line of the move ``payload`` names (its seq), as the page shows it: the first
    entry of the seq, the move's own (a sealed answer's line says only that it was given)."""
    for e in log.entries(game):
        if e["seq"] == payload.get("seq"):
            return _log_line(game, e, names)
    return ""


def _log_line(game: Game, entry: log.Item, names: dict[int, str]) -> str:
    """The sentence the game page's log has, each name between Unicode's isolates as there: a
    right-to-left name must not reorder the sentence (in the text part and the HTML alike)."""
    isolated = {seat: isolate(name) for seat, name in names.items()}
    text = describe.move_describe(entry, isolated, game.map)
    note = describe.entry_note(entry)
    return f"{text} {aside(note)}" if note else text


def _state_summary(view: State, names: dict[int, str], seat_no: int | None) -> dict[str, Any]:
    players = []
    for p in view["players"]:
        players.append(
            {
                "name": names.get(p["seat"], "?"),
                "cities": len(p["cities"]),
                "plants": join_names(pl["number"] for pl in p["plants"]),
                "you": p["seat"] == seat_no,
            }
        )
    me = next((p for p in view["players"] if p["seat"] == seat_no), None)
    return {
        "round": view["round"],
        "step": view["step"],
        "phase": describe.phase_describe(view["phase"]),
        "players": players,
        "my_money": me["money"] if me else None,
    }


# -- one builder per kind -------------------------------------------------------------------------


def _seat(n: Notification) -> Seat | None:
    if n.game is None:
        return None
    return selectors.seat_of(n.game, n.recipient)


def _turn_context(
    n: Notification, pf: Prefetch | None = None, *, reminder: bool
) -> dict[str, Any] | None:
    game = n.game
    seat = _seat(n)
    if game is None or seat is None or game.status != Game.Status.RUNNING:
        return None
    if seat.seat not in (game.to_act or []) or seat.bot_controlled:
        return None  # already played (or the bot plays): nothing to tell
    _refresh_seat(seat, ["deadline"], pf)
    names = _names(game, pf)
    view = _view(game, n.recipient, seat.seat, pf)
    moves, earlier = _moves_since(game, seat.seat, names, pf)
    return {
        **_game_context(n, seat),
        "reminder": reminder,
        "moves": moves,
        "earlier_moves": earlier,
        "summary": _state_summary(view, names, seat.seat),
        "asked": describe.legal_describe(view.get("legal") or []),
        "deadline": format_when(seat.deadline, user_zone(n.recipient)),
        # The recipient's own order (the row is theirs alone): why it was not used.
        "plan_note": str(n.payload.get("plan_note") or ""),
        "reply_to": _reply_to(game, seat),
        "reply_examples": _reply_examples(view.get("legal") or [], game.map),
        "taps": _taps(game, seat, view.get("legal") or []),
        "chat": _chat_since(game, seat, n.recipient, pf),
    }


#: Chat messages an email carries at most (the newest; the page has the rest), and how far back
#: a batch reads them.
CHAT_IN_EMAIL = 10
CHAT_DAYS = 14


def _chat_since(
    game: Game, seat: Seat, user: Any, pf: Prefetch | None = None
) -> list[dict[str, str]]:
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


def _taps(game: Game, seat: Seat, legal: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """One-tap links for the obvious choices now (each opens a confirmation page)."""
    hours = max(24.0, float(game.options.get("turn_hours", 24)) * 2)
    fuel: dict[str, Any] = {}
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


def _reply_to(game: Game, seat: Seat) -> str | None:
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


def _reply_examples(legal: Sequence[Mapping[str, Any]], map_slug: str) -> list[str]:
    """Examples of what a reply may say now, in the recipient's language, each naming what is
    offered now (a plant in the market, the lowest bid, a city one may build in)."""
    lang = "ja" if (translation.get_language() or "")[:2] == "ja" else "en"
    out: list[str] = []
    for entry in legal:
        example = _example(entry, lang, map_slug)
        if example and example not in out:
            out.append(example)
    return out


def _reply_error(payload: dict[str, Any], game: Game) -> str:
    """Why a reply was not taken, in the reader's words: a reply to an older position says
    which (the email's move number and the game's now), not only that someone moved."""
    code = str(payload.get("code") or "")
    if code == "stale_state":
        return _(
            "That email was about move %(then)s of the game; it is at move %(now)s now and "
            "asks you something else, so your reply was not made."
        ) % {"then": int(payload.get("since") or 0), "now": game.seq}
    return error_text(code, str(payload.get("message") or ""))


def _reply_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    """The answer to a move sent by email: what was made, or why not and what can be done."""
    game = n.game
    seat = _seat(n)
    if game is None or seat is None:
        return None
    names = _names(game, pf)
    p = n.payload
    since = int(p.get("since") or 0)
    lines = [_log_line(game, e, names) for e in log.entries(game) if e["seq"] > since][
        -MAX_MOVES_LISTED:
    ]
    ctx: dict[str, Any] = {
        **_game_context(n, seat),
        "ok": bool(p.get("ok")),
        "plan": bool(p.get("plan")),
        "line": str(p.get("line") or ""),
        "error": _reply_error(p, game),
        "code": str(p.get("code") or ""),
        "moves": lines,
        "asked": [],
        "reply_to": None,
        "takeback_url": (
            _takeback_link(game, seat, n.recipient, p.get("seq"))
            if p.get("ok") and not p.get("plan")
            else ""
        ),
    }
    awaited = game.status == Game.Status.RUNNING and seat.seat in (game.to_act or [])
    if awaited:
        view = _view(game, n.recipient, seat.seat, pf)
        ctx["asked"] = describe.legal_describe(view.get("legal") or [])
        ctx["reply_examples"] = _reply_examples(view.get("legal") or [], game.map)
        ctx["reply_to"] = _reply_to(game, seat)
        # The same one-tap links as the turn email: the player who moved by reply and is asked
        # again reads this email, not a turn email.
        ctx["taps"] = _taps(game, seat, view.get("legal") or [])
    return ctx


def _cancelled_lines(game: Game, cancels: list[int], names: dict[int, str]) -> list[str]:
    """The log's lines of the moves ``cancels`` names (and what they led to)."""
    wanted = {int(x) for x in cancels}
    return [_log_line(game, e, names) for e in log.entries(game) if e["seq"] in wanted]


def _takeback_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    """ "X took back their move": to a player a cancelled move had told it was their turn. Not
    sent when none of those turn emails went after all (skipped: the turn was gone)."""
    game, seat = n.game, _seat(n)
    if game is None or seat is None or game.status != Game.Status.RUNNING:
        return None
    told = [int(x) for x in n.payload.get("told") or []]
    delivered = Q(status=Notification.Status.SENDING) | Q(
        status=Notification.Status.SENT, sent_at__isnull=False
    )
    if told and not Notification.objects.filter(delivered, pk__in=told).exists():
        return None
    names = _names(game, pf)
    cancels = [int(x) for x in n.payload.get("cancels") or []]
    return {
        **_game_context(n, seat),
        "player": names.get(int(n.payload.get("by", -1)), "?"),
        "moves": _cancelled_lines(game, cancels, names),
        "n": len(cancels),
        "your_turn": seat.seat in (game.to_act or []),
    }


def _takeback_asked_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    """Another player asks to take back their moves: agree or refuse in one tap. Not sent once
    the request is closed (answered, void, expired) or this player has agreed already."""
    game, seat = n.game, _seat(n)
    if game is None or seat is None:
        return None
    req = TakebackRequest.objects.filter(game=game, pk=n.payload.get("request")).first()
    if req is None or takebacks.request_state(req, game) != TakebackRequest.Status.PENDING:
        return None
    if seat.seat in req.accepted:
        return None
    names = _names(game, pf)
    hours = max(1.0, (req.deadline - timezone.now()).total_seconds() / 3600)
    taps = [
        {
            "label": label,
            "url": onetap.link(
                game=game,
                seat=seat.seat,
                user_id=seat.user_id,
                choice=choice,
                hours=hours,
                seq=req.at_seq,
                request_id=req.pk,
            ),
        }
        for choice, label in (
            ("takeback_accept", _("Agree")),
            ("takeback_decline", _("Refuse")),
        )
    ]
    return {
        **_game_context(n, seat),
        "player": names.get(req.seat, "?"),
        "moves": _cancelled_lines(game, list(req.cancels), names),
        "n": len(req.cancels),
        "why": takebacks.why_ask(req.reason or None),
        "deadline": format_when(req.deadline, user_zone(n.recipient)),
        "taps": taps,
    }


def _takeback_declined_context(
    n: Notification, pf: Prefetch | None = None
) -> dict[str, Any] | None:
    """To the player who asked: another player refused; the moves stand."""
    game, seat = n.game, _seat(n)
    if game is None or seat is None:
        return None
    names = _names(game, pf)
    return {**_game_context(n, seat), "player": names.get(int(n.payload.get("by", -1)), "?")}


def _takeback_link(game: Game, seat: Seat, user: Any, move_seq: int | None) -> str:
    """A one-tap "take back this move" for the answer to a move sent by email, while the
    player may still take it back alone ("" otherwise)."""
    if move_seq is None or game.status != Game.Status.RUNNING:
        return ""
    offer = takebacks.offer_for(game, user)
    if offer is None or offer.how != takebacks.NOW or offer.cancels[:1] != [move_seq]:
        return ""
    hours = max(24.0, float(game.options.get("turn_hours", 24)))
    return onetap.link(
        game=game, seat=seat.seat, user_id=seat.user_id, choice="takeback", hours=hours
    )


def _started_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    game, seat = n.game, _seat(n)
    if game is None or seat is None:
        return None
    names = _names(game, pf)
    ctx = {**_game_context(n, seat), "players": [names[k] for k in sorted(names)]}
    if game.status == Game.Status.RUNNING and seat.seat in (game.to_act or []):
        _refresh_seat(seat, ["deadline"], pf)
        view = _view(game, n.recipient, seat.seat, pf)
        ctx["your_turn"] = True
        ctx["asked"] = describe.legal_describe(view.get("legal") or [])
        ctx["reply_to"] = _reply_to(game, seat)
        ctx["reply_examples"] = _reply_examples(view.get("legal") or [], game.map)
        ctx["deadline"] = format_when(seat.deadline, user_zone(n.recipient))
    else:
        ctx["your_turn"] = False
        ctx["first"] = [names.get(int(s), "?") for s in game.to_act or []]
    return ctx


def _over_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    game, seat = n.game, _seat(n)
    if game is None or seat is None or game.status != Game.Status.FINISHED:
        return None
    names = _names(game, pf)
    view = _view(game, n.recipient, seat.seat, pf)
    results = sorted(view.get("result") or [], key=lambda r: (r.get("rank", 99), r.get("seat")))
    rows = [
        {
            "rank": r.get("rank"),
            "name": names.get(r.get("seat"), "?"),
            "powered": r.get("powered"),
            "cities": r.get("cities"),
            "money": r.get("money"),
            "you": r.get("seat") == seat.seat,
        }
        for r in results
    ]
    winners = [r["name"] for r in rows if r["rank"] == 1]
    return {**_game_context(n, seat), "results": rows, "winners": winners}


def _timeout_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    game, seat = n.game, _seat(n)
    if game is None or seat is None:
        return None
    _refresh_seat(seat, ["timeouts_in_row", "bot_controlled"], pf)
    limit = int((game.options or {}).get("timeouts_before_bot", 0) or 0)
    return {
        **_game_context(n, seat),
        "action": _move_line(game, n.payload, _names(game, pf)),
        "timeouts_in_row": seat.timeouts_in_row,
        "bot_after": limit,
        "bot_controlled": seat.bot_controlled,
    }


def _bot_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    game, seat = n.game, _seat(n)
    if game is None or seat is None:
        return None
    names = _names(game, pf)
    return {
        **_game_context(n, seat),
        "you": bool(n.payload.get("you")),
        "player": names.get(int(n.payload.get("seat", -1)), "?"),
    }


def _digest_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    user = n.recipient
    zone = user_zone(user)
    since_raw = n.payload.get("since")
    since = datetime.fromisoformat(since_raw) if since_raw else n.created_at - timedelta(days=1)
    waiting = []
    # A practice game whose emails are off (``Game.notify``) is not in the digest either.
    for game in selectors.games_awaiting(user).filter(notify=True).order_by("pk"):
        seat = selectors.seat_of(game, user)
        waiting.append(
            {
                "game_id": game.pk,
                "map_name": map_name(game.map),
                "deadline": format_when(seat.deadline if seat else None, zone),
                "url": links.game_link(user=user, game_id=game.pk),
            }
        )
    mine = Seat.objects.filter(user=user)
    finished = list(
        Game.objects.filter(seats__in=mine, finished_at__gte=since).order_by("pk").distinct()
    )
    started = list(
        Game.objects.filter(seats__in=mine, started_at__gte=since).order_by("pk").distinct()
    )
    timeouts = Move.objects.filter(
        game__seats__in=mine, created_at__gte=since, source=Move.Source.TIMEOUT
    ).count()
    chat = _digest_chat(user, since)
    if not (waiting or finished or started or chat):
        return None
    return {
        "waiting": waiting,
        "chat": chat,
        "finished": [
            {
                "game_id": g.pk,
                "map_name": map_name(g.map),
                "url": links.game_link(user=user, game_id=g.pk),
            }
            for g in finished
        ],
        "started": [{"game_id": g.pk, "map_name": map_name(g.map)} for g in started],
        "timeouts": timeouts,
    }


def _digest_chat(user: Any, since: datetime) -> list[dict[str, Any]]:
    """The others' chat messages in the player's games since the previous digest (the newest
    ``CHAT_IN_EMAIL`` of each game; hidden ones and muted authors left out): a digest reader
    hears the chat here, as others do in their turn emails, never by an email per message."""
    muted = ChatMute.objects.filter(user=user).values("muted_id")
    rows = (
        ChatMessage.objects.filter(game__seats__user=user, hidden=False, created_at__gt=since)
        .exclude(author=user)
        .exclude(author_id__in=muted)
        .select_related("author__profile")
        .annotate(game_map=F("game__map"))
        .order_by("-id")[: CHAT_IN_EMAIL * 20]
    )
    games: dict[int, dict[str, Any]] = {}
    for m in reversed(list(rows)):
        g = games.get(m.game_id)
        if g is None:
            g = games[m.game_id] = {
                "game_id": m.game_id,
                "map_name": map_name(m.game_map),
                "url": links.game_link(user=user, game_id=m.game_id),
                "messages": [],
            }
        g["messages"].append({"author": chat_selectors.author_name(m), "text": m.text})
    for g in games.values():
        g["messages"] = g["messages"][-CHAT_IN_EMAIL:]
    return [games[k] for k in sorted(games)]


def _full_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    """The creator's "your game is full": only while it is still full and not started."""
    game = n.game
    if game is None or game.status != Game.Status.OPEN:
        return None
    names = _names(game, pf)
    if len(names) < game.max_players:
        return None
    return {**_game_context(n, None), "players": [names[k] for k in sorted(names)]}


def _invited_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    """An invitation: only while the game is open and the invited player has no seat yet."""
    game = n.game
    if game is None or game.status != Game.Status.OPEN:
        return None
    names = _names(game, pf)
    seats = selectors.game_seats(game)
    if any(s.user_id == n.recipient_id for s in seats):
        return None  # joined already
    if not Invitation.objects.filter(game=game, user_id=n.recipient_id).exists():
        return None  # withdrawn (the player was removed): nothing to tell
    by = next((s for s in seats if s.user_id == n.payload.get("by")), None)
    return {
        **_game_context(n, None),
        "players": [names[k] for k in sorted(names)],
        "inviter": selectors.seat_name(by) if by is not None else "",
        "seats_total": game.max_players,
    }


def _webhook_disabled_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any]:
    return {
        "url": str(n.payload.get("url", "")),
        "reason": str(n.payload.get("reason", "")),
        "failures": int(n.payload.get("failures", 0)),
        "webhooks_url": settings.SITE_URL + "/webhooks/",
    }


# Keyed by the stored kind (a str; Kind members are equal to it).
_Builder = Callable[[Notification, Prefetch | None], dict[str, Any] | None]
BUILDERS: dict[str, tuple[str, _Builder]] = {
    Kind.TURN: ("turn", lambda n, pf: _turn_context(n, pf, reminder=False)),
    Kind.REMINDER: ("turn", lambda n, pf: _turn_context(n, pf, reminder=True)),
    Kind.GAME_STARTED: ("game_started", _started_context),
    Kind.GAME_OVER: ("game_over", _over_context),
    Kind.TIMEOUT: ("timeout", _timeout_context),
    Kind.BOT_TOOK_OVER: ("bot_took_over", _bot_context),
    Kind.DIGEST: ("digest", _digest_context),
    Kind.REPLY: ("reply", _reply_context),
    Kind.GAME_FULL: ("game_full", _full_context),
    Kind.INVITED: ("invited", _invited_context),
    Kind.WEBHOOK_DISABLED: ("webhook_disabled", _webhook_disabled_context),
    Kind.TAKEBACK: ("takeback", _takeback_context),
    Kind.TAKEBACK_ASKED: ("takeback_asked", _takeback_asked_context),
    Kind.TAKEBACK_DECLINED: ("takeback_declined", _takeback_declined_context),
}


def email_build(n: Notification, pf: Prefetch | None = None) -> EmailMultiAlternatives | None:
    """The email for outbox row ``n``, or None when there is nothing to send any more.

    ``pf``: what the batch read once for all its rows (``prefetch``); without it every read is
    made here."""
    user = n.recipient
    entry = BUILDERS.get(n.kind)
    if entry is None or not user.email:
        return None
    template, builder = entry
    zone = user_zone(user)
    with translation.override(_language(user)), timezone.override(zone):
        ctx = builder(n, pf)
        if ctx is None:
            return None
        settings_url = links.settings_link(user=user)
        ctx.update(
            {
                "recipient": user,
                "recipient_name": getattr(
                    getattr(user, "profile", None), "name", user.get_username()
                ),
                "settings_url": settings_url,
                "site_url": settings.SITE_URL,
                "kind": n.kind,
            }
        )
        lang = translation.get_language()
        ctx.setdefault("LANGUAGE_CODE", lang)  # <html lang>
        subject = " ".join(rendering.render(f"emails/{template}_subject.txt", ctx, lang).split())
        text = rendering.render(f"emails/{template}.txt", ctx, lang)
        html = rendering.render(f"emails/{template}.html", ctx, lang)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "Message-ID": message_id(n),
            "Date": formatdate(localtime=False),
            "List-Unsubscribe": f"<{settings_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
            "X-PowerGrid-Notification": str(n.pk),
            "X-PowerGrid-Kind": str(n.kind),
            # A header, not ``reply_to=``: the fast MIME path (games.fastpath.wire) keeps it.
            **({"Reply-To": ctx["reply_to"]} if ctx.get("reply_to") else {}),
        },
    )
    message.attach_alternative(html, "text/html")
    bounce = verp.bounce_address(notification_id=n.pk, user_id=user.pk, address=user.email)
    if bounce is not None:
        # The envelope sender (Return-Path) is this email's own bounce address, so a delivery
        # status notification names the email and its recipient (games.mailevents); the From
        # line people see stays ours.
        message.extra_headers["From"] = message.from_email
        message.from_email = bounce
    return message
