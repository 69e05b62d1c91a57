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
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import formatdate
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import connection
from django.db.models import Max, Q
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine, selectors
from games.models import Game, Move, Notification, Seat

from . import links, rendering

Kind = Notification.Kind
MAX_MOVES_LISTED = 25

RESOURCE_NAMES = {
    "coal": lambda: _("coal"),
    "oil": lambda: _("oil"),
    "garbage": lambda: _("garbage"),
    "uranium": lambda: _("uranium"),
}


def _zone(user: Any) -> zoneinfo.ZoneInfo:
    tz = getattr(getattr(user, "profile", None), "timezone", "UTC") or "UTC"
    try:
        return zoneinfo.ZoneInfo(tz)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _language(user: Any) -> str:
    return getattr(getattr(user, "profile", None), "language", "en") or "en"


def format_when(value: datetime | None, zone: zoneinfo.ZoneInfo) -> str:
    """A deadline in the recipient's zone and language, with the zone's name."""
    if value is None:
        return ""
    local = timezone.localtime(value, zone)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({local.tzname()}, {zone.key})"


def message_id(n: Notification) -> str:
    """Stable across attempts: a resend carries the same Message-ID."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    digest = hashlib.sha256(f"{settings.SECRET_KEY}:{n.pk}".encode()).hexdigest()[:16]
    return f"<notification-{n.pk}.{digest}@{domain}>"


# -- a batch's shared reads ------------------------------------------------------------------------


@dataclass
class Prefetch:
    """What a batch of rows shares, read once per batch (``prefetch``) instead of once per email.

    ``fresh_seats``: the games' seats (``_seats_cache``) were read after the claim, so their
    deadlines and counters are current (no ``refresh_from_db`` per email). ``last_own`` maps
    (game, seat) to the seq of that seat's last human move; ``recent`` maps a game to its last
    ``MAX_MOVES_LISTED`` moves (seq ascending; a game's seqs are 1..game.seq without gaps, so the
    number of moves since a seq is ``game.seq - seq``). ``views`` keeps each (game, seat)'s view.
    """

    fresh_seats: bool = False
    last_own: dict[tuple[int, int], int] = field(default_factory=dict)
    recent: dict[int, list[Move]] | None = None
    views: dict[tuple[int, int | None], dict[str, Any]] = field(default_factory=dict)
    names: dict[int, dict[int, str]] = field(default_factory=dict)


HUMAN_SOURCES = ("web", "api", "email")


def prefetch(rows: list[Notification]) -> Prefetch:
    """Read what ``rows`` need in a few queries: seats (with users and profiles) of every game, the
    last human move of each recipient's seat, and each game's last moves. Each row's ``game``
    becomes one shared instance per game (so a game's view is built once per batch)."""
    pf = Prefetch(fresh_seats=True, recent={})
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
        game._seats_cache = by_game[gid]  # type: ignore[attr-defined]
    # Only turn notices and reminders list moves.
    listing = {n.game_id for n in rows if n.kind in (Kind.TURN, Kind.REMINDER) and n.game_id}
    if listing:
        for gid, seat_no, seq in (
            Move.objects.filter(game_id__in=list(listing), source__in=HUMAN_SOURCES)
            .values("game_id", "seat")
            .annotate(last=Max("seq"))
            .values_list("game_id", "seat", "last")
        ):
            pf.last_own[(gid, seat_no)] = seq
        assert pf.recent is not None
        for m in _recent_moves({gid: games[gid].seq for gid in listing}):
            pf.recent.setdefault(m.game_id, []).append(m)
    return pf


def _recent_moves(seqs: dict[int, int]) -> list[Move]:
    """Each game's moves with seq in (seqs[game] - MAX_MOVES_LISTED, seqs[game]], by game and seq.

    On PostgreSQL one statement joins the moves to the (game, lowest seq) pairs; elsewhere an OR
    of one condition per game (which the ORM takes ~1 ms per 10 games to build)."""
    if connection.vendor == "postgresql":
        table = Move._meta.db_table
        ids, lows = list(seqs), [seqs[g] - MAX_MOVES_LISTED for g in seqs]
        highs = [seqs[g] for g in seqs]
        return list(
            Move.objects.raw(
                f"SELECT m.* FROM {table} m"
                " JOIN unnest(%s::bigint[], %s::bigint[], %s::bigint[]) AS w(gid, lo, hi)"
                " ON m.game_id = w.gid AND m.seq > w.lo AND m.seq <= w.hi"
                " ORDER BY m.game_id, m.seq",
                [ids, lows, highs],
            )
        )
    window = Q()
    for gid, seq in seqs.items():
        window |= Q(game_id=gid, seq__gt=seq - MAX_MOVES_LISTED, seq__lte=seq)
    return list(Move.objects.filter(window).order_by("game_id", "seq"))


# -- describing the game --------------------------------------------------------------------------


def map_name(slug: str) -> str:
    try:
        m = engine.map_load(slug)
    except Exception:
        return slug
    return m.name_ja if translation.get_language() == "ja" and m.name_ja else m.name_en


def city_names(slug: str, cities: list[str]) -> list[str]:
    try:
        m = engine.map_load(slug)
    except Exception:
        return list(cities)
    ja = translation.get_language() == "ja"
    out = []
    for c in cities:
        city = m.cities.get(c)
        out.append((city.name_ja if ja and city.name_ja else city.name_en) if city else c)
    return out


PHASES = {
    "auction": lambda: _("phase 2: auction of power plants"),
    "resources": lambda: _("phase 3: buying resources"),
    "build": lambda: _("phase 4: building"),
    "bureaucracy": lambda: _("phase 5: bureaucracy (powering cities)"),
    "finished": lambda: _("game over"),
}


def describe_phase(phase: str) -> str:
    f = PHASES.get(phase)
    return f() if f else phase


def describe_legal(legal: list[dict[str, Any]]) -> list[str]:
    """What is asked of the player, one sentence per action type they may send."""
    out = []
    for entry in legal or []:
        t = entry.get("type")
        if t == "choose_plant":
            plants = ", ".join(str(p.get("number")) for p in entry.get("plants", []))
            out.append(
                _("Choose a power plant to auction (available: %(plants)s).") % {"plants": plants}
            )
        elif t == "pass_auction":
            out.append(_("Or pass: buy no plant this round."))
        elif t == "bid":
            out.append(_("Bid at least %(min)s Elektro.") % {"min": entry.get("min")})
        elif t == "pass_bid":
            out.append(_("Or drop out of this auction."))
        elif t == "discard_plant":
            out.append(_("Discard one of your power plants: you have one too many."))
        elif t == "buy_resources":
            out.append(_("Buy resources for your power plants."))
        elif t == "build":
            out.append(
                ngettext(
                    "Build in cities (%(n)s city is open to you now).",
                    "Build in cities (%(n)s cities are open to you now).",
                    len(entry.get("cities", {})),
                )
                % {"n": len(entry.get("cities", {}))}
            )
        elif t == "power":
            out.append(_("Choose which power plants to fire to power your cities."))
        elif t:
            out.append(str(t))
    return out


def describe_action(game: Game, action: dict[str, Any]) -> str:
    t = action.get("type")
    if t == "choose_plant":
        return _("put plant %(plant)s up for auction at %(bid)s Elektro") % {
            "plant": action.get("plant"),
            "bid": action.get("bid"),
        }
    if t == "pass_auction":
        return _("passed in the auction round")
    if t == "bid":
        return _("bid %(amount)s Elektro") % {"amount": action.get("amount")}
    if t == "pass_bid":
        return _("dropped out of the auction")
    if t == "discard_plant":
        return _("discarded plant %(plant)s") % {"plant": action.get("plant")}
    if t == "buy_resources":
        parts = [
            f"{int(action.get(r) or 0)} {name()}"
            for r, name in RESOURCE_NAMES.items()
            if int(action.get(r) or 0) > 0
        ]
        if not parts:
            return _("bought no resources")
        return _("bought %(list)s") % {"list": ", ".join(parts)}
    if t == "build":
        cities = city_names(game.map, list(action.get("cities") or []))
        if not cities:
            return _("built nothing")
        return _("built in %(cities)s") % {"cities": ", ".join(cities)}
    if t == "power":
        return _("powered their cities")
    return str(t)


def describe_move(game: Game, move: Move, names: dict[int, str]) -> str:
    text = f"{names.get(move.seat, '?')} {describe_action(game, move.action)}"
    if translation.get_language() == "ja":
        text = f"{names.get(move.seat, '?')}: {describe_action(game, move.action)}"
    if move.source == Move.Source.TIMEOUT:
        text += " " + _("(time ran out: the default move was made)")
    elif move.source == Move.Source.BOT:
        text += " " + _("(played by the bot)")
    return text


def _names(game: Game, pf: Prefetch | None = None) -> dict[int, str]:
    if pf is not None and game.pk in pf.names:
        return pf.names[game.pk]
    names = {s.seat: selectors.seat_name(s) for s in selectors.game_seats(game)}
    if pf is not None:
        pf.names[game.pk] = names
    return names


def _view(game: Game, user: Any, seat_no: int | None, pf: Prefetch | None) -> dict[str, Any]:
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
    if pf is not None and pf.recent is not None:
        last_own = pf.last_own.get((game.pk, seat_no), 0)
        listed = [m for m in pf.recent.get(game.pk, []) if m.seq > last_own]
        total = max(0, game.seq - last_own)
        return [describe_move(game, m, names) for m in listed], max(0, total - len(listed))
    last_own = (
        Move.objects.filter(game=game, seat=seat_no, source__in=["web", "api", "email"])
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    ) or 0
    qs = Move.objects.filter(game=game, seq__gt=last_own).order_by("-seq")
    total = qs.count()
    moves = list(reversed(list(qs[:MAX_MOVES_LISTED])))
    return [describe_move(game, m, names) for m in moves], max(0, total - len(moves))


def _state_summary(
    view: dict[str, Any], names: dict[int, str], seat_no: int | None
) -> dict[str, Any]:
    players = []
    for p in view.get("players", []):
        players.append(
            {
                "name": names.get(p.get("seat"), "?"),
                "cities": len(p.get("cities") or []),
                "plants": ", ".join(str(pl.get("number", "")) for pl in p.get("plants") or []),
                "you": p.get("seat") == seat_no,
            }
        )
    me = next((p for p in view.get("players", []) if p.get("seat") == seat_no), None)
    return {
        "round": view.get("round"),
        "step": view.get("step"),
        "phase": describe_phase(str(view.get("phase"))),
        "players": players,
        "my_money": me.get("money") if me else None,
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
        "asked": describe_legal(view.get("legal") or []),
        "deadline": format_when(seat.deadline, _zone(n.recipient)),
    }


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
        ctx["asked"] = describe_legal(view.get("legal") or [])
        ctx["deadline"] = format_when(seat.deadline, _zone(n.recipient))
    else:
        ctx["your_turn"] = False
        ctx["first"] = ", ".join(names.get(int(s), "?") for s in game.to_act or [])
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
    return {**_game_context(n, seat), "results": rows, "winners": ", ".join(winners)}


def _timeout_context(n: Notification, pf: Prefetch | None = None) -> dict[str, Any] | None:
    game, seat = n.game, _seat(n)
    if game is None or seat is None:
        return None
    _refresh_seat(seat, ["timeouts_in_row", "bot_controlled"], pf)
    limit = int((game.options or {}).get("timeouts_before_bot", 0) or 0)
    return {
        **_game_context(n, seat),
        "action": describe_action(game, n.payload.get("action") or {}),
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
    zone = _zone(user)
    since_raw = n.payload.get("since")
    since = datetime.fromisoformat(since_raw) if since_raw else n.created_at - timedelta(days=1)
    waiting = []
    for game in selectors.games_awaiting(user).order_by("pk"):
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
    if not (waiting or finished or started):
        return None
    return {
        "waiting": waiting,
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
    zone = _zone(user)
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
        },
    )
    message.attach_alternative(html, "text/html")
    return message
