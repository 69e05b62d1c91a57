"""One builder per kind of email: each takes an outbox row (and the batch's ``Prefetch``) and
returns the context its template reads, or None when the email is no longer worth sending (a
turn already played, a request closed, a digest with nothing in it). ``emails.BUILDERS`` maps
each kind to its template and builder; ``emails.email_build`` renders it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.zones import user_zone
from games import describe, log, selectors, takebacks
from games.chat import selectors as chat_selectors
from games.inbox import onetap
from games.inbox.tokens import RESIGN, RESIGN_CONFIRM_HOURS, reply_address
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
from games.selectors.lists import games_awaiting
from games.sheets.asking import sheets_on
from games.sheets.inbox import sheet_mail
from games.web.errors import error_text
from powergrid.levels import DEFAULT_LEVEL, LEVELS

from . import contexts, links, parts


def turn_context(
    n: Notification, pf: parts.Prefetch | None = None, *, reminder: bool
) -> contexts.TurnContext | None:
    game = n.game
    seat = parts.recipient_seat(n)
    if game is None or seat is None or game.status != Game.Status.RUNNING:
        return None
    # Not awaited: its round sheet's email (every seat is asked at once when a round begins,
    # games.sheets.asking), unless the sheet has been answered meanwhile.
    sheet_only = seat.seat not in (game.to_act or [])
    if seat.bot_controlled or (sheet_only and not sheets_on(game)):
        return None  # already played (or the bot plays): nothing to tell
    parts.refresh_seat(seat, ["deadline", "sheet_waits"], pf)
    if sheet_only and not parts.sheet_waits(game, seat, pf):
        return None  # the sheet answered meanwhile: nothing to tell
    names = parts.seat_names(game, pf)
    view = parts.view_for(game, n.recipient, seat.seat, pf)
    moves, earlier = parts.moves_since(game, seat.seat, names, pf)
    return {
        **parts.game_context(n, seat),
        "reminder": reminder,
        "sheet_only": sheet_only,
        "moves": moves,
        "earlier_moves": earlier,
        "summary": parts.state_summary(view, names, seat.seat),
        "asked": describe.legal_describe(view.get("legal") or []),
        "deadline": parts.format_when(seat.deadline, user_zone(n.recipient)),
        # The recipient's own order (the row is theirs alone): why it was not used.
        "plan_note": str(n.payload.get("plan_note") or ""),
        "private_note": parts.private_note(game, n.recipient, pf),
        "reply_to": parts.reply_to(game, seat),
        "reply_examples": parts.reply_examples(view.get("legal") or [], game.map),
        "taps": parts.taps(game, seat, view.get("legal") or []),
        "chat": parts.chat_since(game, seat, n.recipient, pf),
        # The round sheet (games.sheets), from the batch's read of the seat's latest answer.
        "sheet": sheet_mail(game, seat, n.recipient, parts.sheet_answer(game, seat, pf)),
    }


def _reply_error(payload: dict[str, Any], game: Game) -> str:
    """Why a reply was not taken, in the reader's words: a reply to an older position says
    which (the email's move number and the game's now), not only that someone moved."""
    code = str(payload.get("code") or "")
    if code == "sheet_line":  # games.sheets.mailtext.SheetLineError: the word, the right form
        example, word = str(payload.get("example") or ""), str(payload.get("word") or "")
        if word:
            return _(
                "“%(word)s” in that line was not understood, so nothing of your sheet was saved "
                "or played. Write the line like this: %(example)s"
            ) % {"word": word, "example": example}
        return _(
            "Something is missing in that line, so nothing of your sheet was saved or played. "
            "Write the line like this: %(example)s"
        ) % {"example": example}
    if code == "stale_state":
        return _(
            "That email was about move %(then)s of the game; it is at move %(now)s now and "
            "asks you something else, so your reply was not made."
        ) % {"then": int(payload.get("since") or 0), "now": game.seq}
    return error_text(code, str(payload.get("message") or ""))


def reply_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.ReplyContext | None:
    """The answer to a move sent by email: what was made, or why not and what can be done."""
    game = n.game
    seat = parts.recipient_seat(n)
    if game is None:
        return None
    # These three hold nothing of the seat's position: also to a player whose seat a substitute
    # took since (``receive._holder``), whom the seat's row no longer names.
    if n.payload.get("code") in _SENDER_CODES:
        return _wrong_sender_context(n, seat)
    if _left(n.payload, seat):
        return _left_context(n, seat)
    if seat is None:
        return None
    if n.payload.get("code") == "resign_confirm":
        return _resign_confirm_context(n, game, seat)
    names = parts.seat_names(game, pf)
    p = n.payload
    since = int(p.get("since") or 0)
    lines = [parts.log_line(game, e, names) for e in log.entries(game) if e["seq"] > since][
        -parts.MAX_MOVES_LISTED :
    ]
    ctx: contexts.ReplyContext = {
        **parts.game_context(n, seat),
        "ok": bool(p.get("ok")),
        "plan": bool(p.get("plan")),
        "resigned": bool(p.get("resigned")),
        "line": str(p.get("line") or ""),
        "will": str(p.get("message") or "") if p.get("ok") else "",
        "error": _reply_error(p, game),
        "code": str(p.get("code") or ""),
        "moves": lines,
        "asked": [],
        "reply_to": None,
        "takeback_url": (
            _takeback_link(game, seat, n.recipient, p.get("seq"))
            if p.get("ok") and not p.get("plan") and not p.get("resigned")
            else ""
        ),
    }
    awaited = (
        game.status == Game.Status.RUNNING
        and seat.seat in (game.to_act or [])
        and seat.offered != Seat.Offered.LEFT  # left: the bot's turn, not theirs
    )
    if awaited:
        view = parts.view_for(game, n.recipient, seat.seat, pf)
        ctx["asked"] = describe.legal_describe(view.get("legal") or [])
        ctx["reply_examples"] = parts.reply_examples(view.get("legal") or [], game.map)
        ctx["reply_to"] = parts.reply_to(game, seat)
        # The same one-tap links and facts as the turn email: the player who moved by reply
        # and is asked again (or whose reply was refused) reads this email, not a turn email.
        ctx["taps"] = parts.taps(game, seat, view.get("legal") or [])
        ctx["summary"] = parts.state_summary(view, names, seat.seat)
    return ctx


def _left(payload: Mapping[str, object], seat: Seat | None) -> bool:
    """The answer is to a player who left the seat: a reply after they left (``seat_left``), a
    message of theirs whose handling failed after they left (``left``: ``receive._answer_failed``),
    or their confirmed resignation when a substitute took the seat before the answer was sent."""
    resigned = bool(payload.get("ok") and payload.get("resigned"))
    return (
        payload.get("code") == "seat_left"
        or bool(payload.get("left"))
        or (seat is None and resigned)
    )


def _left_context(n: Notification, seat: Seat | None) -> contexts.ReplyContext:
    """The answer to a player who left the seat (``_left``): what happened to their reply, with
    the game's number and map and its page (a seat they held lets them watch it), nothing of the
    seat's position: the bot's or the substitute's now, and no move of theirs."""
    p = n.payload
    return {
        **parts.game_context(n, seat),
        "ok": bool(p.get("ok")),
        "plan": False,
        "resigned": bool(p.get("resigned")),
        "line": "",
        "will": "",
        "error": "",
        # A failed message of a player who left reads as a reply after leaving does: not taken.
        "code": "seat_left" if p.get("left") else str(p.get("code") or ""),
        "moves": [],
        "asked": [],
        "reply_to": None,
        "takeback_url": "",
    }


#: Refusals about who sent a reply (``games.inbox.receive._wrong_sender``), answered to the account.
_SENDER_CODES = ("wrong_sender", "sender_not_authenticated", "no_sender")


def _wrong_sender_context(n: Notification, seat: Seat | None) -> contexts.ReplyContext:
    """A reply came from an address that is not the account's, from the account's address but
    our MTA found it forged, or from no address that can be read (``games.inbox.receive``): told
    to the account's address, with the other address (when it is a plain one), the addresses
    moves are taken from and where to add one (the template says what fits each code); nothing
    of the game's state (the recipient's own view would be allowed, but the email is about an
    address, not a move)."""
    return {
        **parts.game_context(n, seat),
        "ok": False,
        "plan": False,
        "resigned": False,
        "line": "",
        "will": "",
        "error": "",
        "code": str(n.payload.get("code")),
        "moves": [],
        "asked": [],
        "reply_to": None,
        "takeback_url": "",
        "other": str(n.payload.get("sender") or ""),
        "account_email": n.recipient.email,
        "account_url": links.absolute(reverse("account_email")),
        # A former holder (resigned, or a substitute took the seat): no advice on how to move,
        # and no warning that a turn email moves for them; none does any more.
        "seat_gone": seat is None or seat.offered == Seat.Offered.LEFT,
    }


def _resign_confirm_context(
    n: Notification, game: Game, seat: Seat
) -> contexts.ReplyContext | None:
    """A ``resign`` reply asks to confirm (``games.inbox.receive._resign_asked``): the email's
    reply address is a ``RESIGN`` token, good ``RESIGN_CONFIRM_HOURS`` from now, and a
    ``resign`` reply to it is the only reply that leaves the game. Nothing of the game's state,
    no move examples (a move sent to this address is refused). Not sent once the seat cannot
    leave (the game over, left already)."""
    if game.status != Game.Status.RUNNING or seat.offered == Seat.Offered.LEFT:
        return None
    level = (game.options or {}).get("bot_level", DEFAULT_LEVEL)
    return {
        **parts.game_context(n, seat),
        "ok": False,
        "plan": False,
        "resigned": False,
        "line": str(n.payload.get("line") or ""),
        "will": "",
        "error": "",
        "code": "resign_confirm",
        "moves": [],
        "asked": [],
        "reply_to": reply_address(
            game_id=game.pk,
            seat=seat.seat,
            seq=game.seq,
            user_id=seat.user_id,
            hours=RESIGN_CONFIRM_HOURS,
            kind=RESIGN,
        ),
        "takeback_url": "",
        "bot": _(LEVELS[level if level in LEVELS else DEFAULT_LEVEL].bot_label),
        "hours": RESIGN_CONFIRM_HOURS,
    }


def _cancelled_lines(game: Game, cancels: list[int], names: dict[int, str]) -> list[str]:
    """The log's lines of the moves ``cancels`` names (and what they led to)."""
    wanted = {int(x) for x in cancels}
    return [parts.log_line(game, e, names) for e in log.entries(game) if e["seq"] in wanted]


def takeback_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.TakebackContext | None:
    """ "X took back their move": to a player a cancelled move had told it was their turn. Not
    sent when none of those turn emails went after all (skipped: the turn was gone)."""
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None or game.status != Game.Status.RUNNING:
        return None
    told = [int(x) for x in n.payload.get("told") or []]
    delivered = Q(status=Notification.Status.SENDING) | Q(
        status=Notification.Status.SENT, sent_at__isnull=False
    )
    if told and not Notification.objects.filter(delivered, pk__in=told).exists():
        return None
    names = parts.seat_names(game, pf)
    cancels = [int(x) for x in n.payload.get("cancels") or []]
    return {
        **parts.game_context(n, seat),
        "player": names.get(int(n.payload.get("by", -1)), "?"),
        "moves": _cancelled_lines(game, cancels, names),
        "n": len(cancels),
        "your_turn": seat.seat in (game.to_act or []),
    }


def takeback_asked_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.TakebackAskedContext | None:
    """Another player asks to take back their moves: agree or refuse in one tap. Not sent once
    the request is closed (answered, void, expired) or this player has agreed already."""
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None:
        return None
    req = TakebackRequest.objects.filter(game=game, pk=n.payload.get("request")).first()
    if req is None or takebacks.request_state(req, game) != TakebackRequest.Status.PENDING:
        return None
    if seat.seat in req.accepted:
        return None
    names = parts.seat_names(game, pf)
    hours = max(1.0, (req.deadline - timezone.now()).total_seconds() / 3600)
    taps: list[contexts.Tap] = [
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
        **parts.game_context(n, seat),
        "player": names.get(req.seat, "?"),
        "moves": _cancelled_lines(game, list(req.cancels), names),
        "n": len(req.cancels),
        "why": takebacks.why_ask(req.reason or None),
        "deadline": parts.format_when(req.deadline, user_zone(n.recipient)),
        "taps": taps,
    }


def takeback_declined_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.TakebackDeclinedContext | None:
    """To the player who asked: another player refused; the moves stand."""
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None:
        return None
    names = parts.seat_names(game, pf)
    return {**parts.game_context(n, seat), "player": names.get(int(n.payload.get("by", -1)), "?")}


def _takeback_link(game: Game, seat: Seat, user: User, move_seq: int | None) -> str:
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


def started_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.StartedContext | None:
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None:
        return None
    names = parts.seat_names(game, pf)
    ctx: contexts.StartedContext = {
        **parts.game_context(n, seat),
        "players": [names[k] for k in sorted(names)],
        "your_turn": False,
    }
    if game.status == Game.Status.RUNNING and seat.seat in (game.to_act or []):
        parts.refresh_seat(seat, ["deadline", "sheet_waits"], pf)
        view = parts.view_for(game, n.recipient, seat.seat, pf)
        ctx["your_turn"] = True
        ctx["asked"] = describe.legal_describe(view.get("legal") or [])
        ctx["reply_to"] = parts.reply_to(game, seat)
        ctx["reply_examples"] = parts.reply_examples(view.get("legal") or [], game.map)
        ctx["deadline"] = parts.format_when(seat.deadline, user_zone(n.recipient))
        # The first move is asked here, not in a turn email: the same facts to decide by.
        ctx["summary"] = parts.state_summary(view, names, seat.seat)
    else:
        ctx["your_turn"] = False
        ctx["first"] = [names.get(int(s), "?") for s in game.to_act or []]
    # A sheets game: round 1's sheet is asked of every seat at once, in this email.
    if game.status == Game.Status.RUNNING and sheets_on(game) and not seat.bot_controlled:
        parts.refresh_seat(seat, ["deadline", "sheet_waits"], pf)
        if ctx["your_turn"] or parts.sheet_waits(game, seat, pf):
            ctx["sheet"] = sheet_mail(game, seat, n.recipient, parts.sheet_answer(game, seat, pf))
            ctx["reply_to"] = parts.reply_to(game, seat)
            ctx["deadline"] = parts.format_when(seat.deadline, user_zone(n.recipient))
    return ctx


def over_context(n: Notification, pf: parts.Prefetch | None = None) -> contexts.OverContext | None:
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None or game.status != Game.Status.FINISHED:
        return None
    names = parts.seat_names(game, pf)
    view = parts.view_for(game, n.recipient, seat.seat, pf)
    results = sorted(view.get("result") or [], key=lambda r: (r["rank"], r["seat"]))
    rows: list[contexts.ResultLine] = [
        {
            "rank": r["rank"],
            "name": names.get(r["seat"], "?"),
            "powered": r["powered"],
            "cities": r["cities"],
            "money": r["money"],
            "you": r["seat"] == seat.seat,
        }
        for r in results
    ]
    winners = [r["name"] for r in rows if r["rank"] == 1]
    return {**parts.game_context(n, seat), "results": rows, "winners": winners}


def timeout_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.TimeoutContext | None:
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None:
        return None
    parts.refresh_seat(seat, ["timeouts_in_row", "bot_controlled"], pf)
    limit = int((game.options or {}).get("timeouts_before_bot", 0) or 0)
    sheet_round = int(n.payload.get("sheet_round") or 0)
    names = parts.seat_names(game, pf)
    return {
        **parts.game_context(n, seat),
        "action": "" if sheet_round else parts.move_line(game, n.payload, names),
        "sheet_round": sheet_round,
        "timeouts_in_row": seat.timeouts_in_row,
        "bot_after": limit,
        "bot_controlled": seat.bot_controlled,
    }


def bot_context(n: Notification, pf: parts.Prefetch | None = None) -> contexts.BotContext | None:
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None:
        return None
    names = parts.seat_names(game, pf)
    return {
        **parts.game_context(n, seat),
        "you": bool(n.payload.get("you")),
        "player": names.get(int(n.payload.get("seat", -1)), "?"),
    }


def seat_context(n: Notification, pf: parts.Prefetch | None = None) -> contexts.SeatContext | None:
    """A seat left, offered or claimed: the names as they were then (kept in the payload: the
    seat's holder may have changed since)."""
    game, seat = n.game, parts.recipient_seat(n)
    if game is None or seat is None:
        return None
    return {
        **parts.game_context(n, seat),
        "event": str(n.payload.get("event", "")),
        "player": str(n.payload.get("player", "?")),
        "before": str(n.payload.get("before", "")),
        "seat_no": int(n.payload.get("seat", 0)),
    }


def digest_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.DigestContext | None:
    user = n.recipient
    zone = user_zone(user)
    since_raw = n.payload.get("since")
    since = datetime.fromisoformat(since_raw) if since_raw else n.created_at - timedelta(days=1)
    waiting: list[contexts.WaitingGame] = []
    # A practice game whose emails are off (``Game.notify``) is not in the digest either.
    for game in games_awaiting(user).filter(notify=True).order_by("pk"):
        seat = selectors.seat_of(game, user)
        waiting.append(
            {
                "game_id": game.pk,
                "map_name": parts.map_name(game.map),
                "deadline": parts.format_when(seat.deadline if seat else None, zone),
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
                "map_name": parts.map_name(g.map),
                "url": links.game_link(user=user, game_id=g.pk),
            }
            for g in finished
        ],
        "started": [{"game_id": g.pk, "map_name": parts.map_name(g.map)} for g in started],
        "timeouts": timeouts,
    }


def _digest_chat(user: User, since: datetime) -> list[contexts.ChatGame]:
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
        .order_by("-id")[: parts.CHAT_IN_EMAIL * 20]
    )
    games: dict[int, contexts.ChatGame] = {}
    for m in reversed(list(rows)):
        g = games.get(m.game_id)
        if g is None:
            g = games[m.game_id] = {
                "game_id": m.game_id,
                "map_name": parts.map_name(m.game_map),
                "url": links.game_link(user=user, game_id=m.game_id),
                "messages": [],
            }
        g["messages"].append({"author": chat_selectors.author_name(m), "text": m.text})
    for g in games.values():
        g["messages"] = g["messages"][-parts.CHAT_IN_EMAIL :]
    return [games[k] for k in sorted(games)]


def full_context(n: Notification, pf: parts.Prefetch | None = None) -> contexts.FullContext | None:
    """The creator's "your game is full": only while it is still full and not started."""
    game = n.game
    if game is None or game.status != Game.Status.OPEN:
        return None
    names = parts.seat_names(game, pf)
    if len(names) < game.max_players:
        return None
    return {**parts.game_context(n, None), "players": [names[k] for k in sorted(names)]}


def invited_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.InvitedContext | None:
    """An invitation: only while the game is open and the invited player has no seat yet."""
    game = n.game
    if game is None or game.status != Game.Status.OPEN:
        return None
    names = parts.seat_names(game, pf)
    seats = selectors.game_seats(game)
    if any(s.user_id == n.recipient_id for s in seats):
        return None  # joined already
    if not Invitation.objects.filter(game=game, user_id=n.recipient_id).exists():
        return None  # withdrawn (the player was removed): nothing to tell
    by = next((s for s in seats if s.user_id == n.payload.get("by")), None)
    return {
        **parts.game_context(n, None),
        "players": [names[k] for k in sorted(names)],
        "inviter": selectors.seat_name(by) if by is not None else "",
        "seats_total": game.max_players,
    }


def webhook_disabled_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.WebhookDisabledContext:
    return {
        "url": str(n.payload.get("url", "")),
        "reason": str(n.payload.get("reason", "")),
        "failures": int(n.payload.get("failures", 0)),
        "webhooks_url": settings.SITE_URL + "/webhooks/",
    }


def open_warning_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.OpenWarningContext | None:
    """The creator's "your open game will be closed": only while it is still open, not full
    and still to be closed (a seat taken since the warning cancels it: ``open_sweep``)."""
    game = n.game
    if game is None or game.status != Game.Status.OPEN or game.open_warned_at is None:
        return None
    taken = len(parts.seat_names(game, pf))
    if taken >= game.max_players:
        return None
    return {
        **parts.game_context(n, None),
        "days_open": max(0, (timezone.now() - game.created_at).days),
        "close_on": datetime.fromisoformat(str(n.payload["close_on"])),
        "seats_taken": taken,
        "seats_total": game.max_players,
    }


def open_closed_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.OpenClosedContext | None:
    """The creator's "your open game was closed": the game is gone, the row says what it was."""
    return {
        "game_id": int(str(n.payload.get("game_id", 0))),
        "map_name": parts.map_name(str(n.payload.get("map", ""))),
        "days_open": int(str(n.payload.get("days_open", 0))),
        "new_game_url": settings.SITE_URL + reverse("game_new"),
    }
