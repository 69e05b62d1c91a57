"""One handler for every email sent to a reply address: the MTA pipe (``manage.py receive_mail``),
the provider's inbound webhook and the dev mailbox's reply button all call ``mail_receive``.
A message to a bounce address (a delivery status notification) is handed to
``games.mailevents.bounces`` first and logged there.

What it does with a message, in order (each refusal is logged as an ``InboundMail`` row):

1. The same Message-ID seen before: ignored (a retried delivery is handled once).
2. An automatic message (RFC 3834 ``Auto-Submitted`` other than ``no``, ``Precedence`` bulk, junk
   or list, an out-of-office or bounce): ignored, never answered (no mail loops).
3. No reply token, a forged one, or a sender who is not the seat's player: ignored, not answered
   (a stranger gets no mail from us: no backscatter).
4. An expired token, a token already used, a reply that is not a move, a move the engine refuses,
   a stale position: refused, and the player is answered once with the reason and what they can
   do now.
5. Otherwise the move goes through ``move_submit`` (source ``email``, the token's seq as
   ``expected_seq``) or the plan through ``plan_set``, and the player gets the move as the log
   writes it.

All of it in one transaction: the move, the log row and the answer (outbox) commit together.

Whatever a message holds, handling it never raises but for the database being away (the pipe
then exits 75 and the MTA retries; the webhook answers 503 and the provider retries): any other
exception while handling ONE message is logged with its Message-ID, the message is kept whole
(an ``InboundMail`` row, status ``failed``, its bytes in ``raw``, in the admin), and the sender
is answered "not understood" when the reply address names their seat. The pipe exits 0 and the
webhook answers 200: a provider retrying a message that always fails would retry it forever.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from email import policy
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from typing import Any

from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import Q

from games import engine, selectors
from games.inbox.parse import ParseError, body_text, parse_command, reply_line
from games.inbox.tokens import ADDRESS, BadToken, ReplyToken, read_token
from games.mailevents.bounces import bounce_receive
from games.models import Game, InboundMail, Move, Notification, Seat
from games.notifications.outbox import OutboxWriter
from games.plans.services import plan_set
from games.services.errors import ServiceError, StaleState
from games.services.moves import move_submit
from powergrid.actions import sealed_move
from powergrid.state import SEALED_BID

log = logging.getLogger("games.inbox")

Status = InboundMail.Status

_AUTO_SUBJECT = re.compile(
    r"^(auto(matic)?[ -]?(reply|response)|out of (the )?office|abwesenheit|不在|自動応答|"
    r"undeliver|delivery status notification|mail delivery failed|returned mail)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Received:
    """What became of a message: its status and code, and whether the player is answered."""

    status: str
    code: str = ""
    answered: bool = False
    move_seq: int | None = None


def _subject(msg: Message) -> str:
    """The Subject, its encoded words decoded (``=?utf-8?...?=``)."""
    try:
        return str(make_header(decode_header(str(msg.get("Subject", "")))))
    except (ValueError, LookupError, UnicodeDecodeError):
        return str(msg.get("Subject", ""))


def _automatic(msg: Message, sender: str) -> str:
    """Why the message is automatic ("" if a person wrote it)."""
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return "auto_submitted"
    if str(msg.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list"):
        return "bulk"
    if msg.get("X-Autoreply") or msg.get("X-Autorespond") or msg.get("X-Auto-Response-Suppress"):
        return "auto_reply"
    if msg.get_content_type() == "multipart/report" or not sender:
        return "bounce"
    local = sender.split("@", 1)[0]
    if local in ("mailer-daemon", "postmaster") or str(msg.get("Return-Path", "")) == "<>":
        return "bounce"
    if _AUTO_SUBJECT.search(_subject(msg).strip()):
        return "auto_reply"
    return ""


def _token(msg: Message, envelope: str | None) -> str | None:
    fields = [envelope or ""]
    for name in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"):
        fields += [str(v) for v in msg.get_all(name, [])]
    for _name, address in getaddresses(fields):
        m = ADDRESS.search(address + " ")
        if m is None and "@" not in address:
            m = ADDRESS.search(f"{address}@")
        if m:
            return m.group(1).lower()
    return None


def mail_receive(raw: bytes, *, via: str, envelope_recipient: str | None = None) -> Received:
    """Handle one received message (see the module's docstring). Never raises for bad mail:
    only ``OperationalError``/``InterfaceError`` (the database is away: retry later)."""
    try:
        return _receive(raw, via=via, envelope_recipient=envelope_recipient)
    except (OperationalError, InterfaceError):
        raise
    except Exception:
        return _failed(raw, via=via, envelope_recipient=envelope_recipient)


_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*([^\r\n]{1,255})", re.IGNORECASE | re.MULTILINE)

#: What a player is told when their reply could not be handled at all.
NOT_UNDERSTOOD = (
    "Your reply could not be understood, and nothing was changed: open the game, or reply to "
    "the newest email with one move on the first line."
)


def _failed(raw: bytes, *, via: str, envelope_recipient: str | None) -> Received:
    """The safety net (see the module's docstring): log, keep, answer when possible."""
    found = _MESSAGE_ID.search(raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0])
    message_id = found.group(1).decode("utf-8", "replace").strip()[:255] if found else None
    log.exception("inbound %s: handling message %s failed; kept for an operator", via, message_id)
    try:
        with transaction.atomic():
            if message_id and InboundMail.objects.filter(message_id=message_id).exists():
                message_id = None  # keep the bytes anyway: the unique id is the earlier row's
            row = InboundMail.objects.create(
                message_id=message_id,
                via=via[:16],
                status=Status.FAILED,
                code="not_understood",
                raw=raw,
            )
            answered = _answer_failed(row, raw, envelope_recipient)
    except (OperationalError, InterfaceError):
        raise
    except Exception:
        log.exception("inbound %s: message %s could not be kept", via, message_id)
        return Received(Status.FAILED, "not_understood")
    return Received(Status.FAILED, "not_understood", answered=answered)


def _answer_failed(row: InboundMail, raw: bytes, envelope: str | None) -> bool:
    """Answer "not understood" to the player whose seat the reply address names, if the message
    came from their address (as a refusal is answered; a stranger gets nothing). Each step may
    fail on the same odd message: then nobody is answered, the row is kept."""
    try:
        with transaction.atomic():
            msg = BytesParser(policy=policy.compat32).parsebytes(raw.replace(b"\x00", b""))
            sender = parseaddr(str(msg.get("From", "")))[1].strip().lower()
            row.sender = sender[:254]
            token = _token(msg, envelope)
            if token is None:
                row.save(update_fields=["sender"])
                return False
            row.token = token
            data = read_token(token, expired_ok=True)
            seat = (
                Seat.objects.select_related("user", "game")
                .filter(game_id=data.game_id, seat=data.seat, user_id=data.user_id)
                .first()
            )
            row.save(update_fields=["sender", "token"])
            if seat is None or (seat.user.email or "").strip().lower() != sender:
                return False
            row.game, row.seat = seat.game, data.seat
            row.save(update_fields=["game", "seat"])
            _answer(seat.user, seat.game, row, data, ok=False, message=NOT_UNDERSTOOD)
            return True
    except (OperationalError, InterfaceError):
        raise
    except Exception:
        log.exception("inbound: no answer for the failed message %s", row.message_id)
        return False


def _receive(raw: bytes, *, via: str, envelope_recipient: str | None) -> Received:
    # The compat32 policy: raw header strings (the default policy's header objects cost more
    # than the rest of the handler); what needs decoding is decoded where it is read. NUL bytes
    # have no place in mail text (RFC 5322) and PostgreSQL stores none: they are dropped first,
    # or a NUL in a header anyone can write (Message-ID, From) would crash the handler.
    raw = raw.replace(b"\x00", b"")
    try:
        msg = BytesParser(policy=policy.compat32).parsebytes(raw)
    except Exception:  # any unreadable bytes are a refusal, never a crash
        log.info("inbound: unreadable message ignored")
        return Received(Status.IGNORED, "unreadable")
    sender = parseaddr(str(msg.get("From", "")))[1].strip().lower()
    message_id = str(msg.get("Message-ID", "")).strip()[:255] or None
    base: dict[str, Any] = {"message_id": message_id, "sender": sender[:254], "via": via}
    # A report to a bounce address (a DSN, a complaint) is the bounce module's, not a reply.
    bounce = bounce_receive(
        msg, via=via, envelope_recipient=envelope_recipient, sender=sender, message_id=message_id
    )
    if bounce is not None:
        return Received(Status.IGNORED, bounce)
    try:
        with transaction.atomic():
            result = _handle(msg, sender, envelope_recipient, base)
    except IntegrityError:  # the same message (or token) handled at the same moment elsewhere
        return Received(Status.IGNORED, "duplicate")
    log.info("inbound %s from %s: %s %s", via, sender, result.status, result.code or "ok")
    return result


def _ignore(base: dict[str, Any], code: str, **more: Any) -> Received:
    InboundMail.objects.create(**base, **more, status=Status.IGNORED, code=code)
    return Received(Status.IGNORED, code)


def _handle(msg: Message, sender: str, envelope: str | None, base: dict[str, Any]) -> Received:
    token = _token(msg, envelope)
    # One query for both: this message handled before (a retried delivery), and this token
    # applied already (a second reply to the same email).
    same = Q(token=token or "-", status=Status.APPLIED)
    if base["message_id"]:
        same |= Q(message_id=base["message_id"])
    seen = set(InboundMail.objects.filter(same).values_list("message_id", "token", "status"))
    if base["message_id"] and any(mid == base["message_id"] for mid, _t, _s in seen):
        return Received(Status.IGNORED, "duplicate")
    used = any(t == token and s == Status.APPLIED for _m, t, s in seen)
    why = _automatic(msg, sender)
    if why:
        return _ignore(base, why)
    if token is None:
        return _ignore(base, "no_token")
    base["token"] = token
    try:
        data = read_token(token, expired_ok=True)
    except BadToken:
        return _ignore(base, "forged")
    # One query: the seat with its player and game.
    seat = (
        Seat.objects.select_related("user", "game")
        .filter(game_id=data.game_id, seat=data.seat, user_id=data.user_id)
        .first()
    )
    if seat is None:
        return _ignore(base, "no_game")
    user, game = seat.user, seat.game
    if not user.email or user.email.strip().lower() != sender:
        return _ignore(base, "wrong_sender", game_id=data.game_id, seat=data.seat)
    base.update(game=game, seat=data.seat)
    if data.expires < _now():
        return _refuse(base, user, game, data, "token_expired", "This reply address has expired.")
    if used:
        return _refuse(
            base, user, game, data, "token_used", "A move was already made with this email."
        )
    try:
        line = reply_line(body_text(msg).replace("\x00", ""))  # a NUL encoded in the body
        base["line"] = line[:200]
        state = engine.state_load(
            game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
        )
        command = parse_command(line, state, data.seat, engine.map_load(game.map))
    except ParseError as exc:
        return _refuse(base, user, game, data, exc.code, exc.message)
    # Each service owns its transaction (a savepoint inside this one): a refusal rolls back
    # only what it began, and the refusal is logged and answered in this transaction.
    try:
        if command.kind == "move":
            result = move_submit(
                game_id=game.pk,
                user=user,
                action=command.body,
                expected_seq=_expected_seq(game, data),
                source=Move.Source.EMAIL,
            )
            seq = result.move.seq
        else:
            _plan, _made, seq = plan_set(game_id=game.pk, user=user, body=command.body)
    except StaleState:
        return _refuse(
            base, user, game, data, "stale_state", "The game moved on since this email was sent."
        )
    except ServiceError as exc:
        return _refuse(base, user, game, data, exc.code, exc.message)
    row = InboundMail.objects.create(**base, status=Status.APPLIED, move_seq=seq)
    _answer(user, game, row, data, ok=True, message="", plan=command.kind == "plan")
    return Received(Status.APPLIED, "", answered=True, move_seq=seq)


#: Moves made at the same time as others' (phase 5, sealed answers): another seat's such move
#: since the email was sent does not change what this seat may do. A sealed auction's answers
#: are all of them, a pass as much as a bid (``sealed_move``): were a pass to make a reply
#: stale and a bid not, the refusal would tell the replier that someone passed.
_SIMULTANEOUS = frozenset({"power"})


def _simultaneous(action: object, sealed_auctions: bool) -> bool:
    return isinstance(action, dict) and (
        action.get("type") in _SIMULTANEOUS or sealed_move(action, sealed_auctions)
    )


def _expected_seq(game: Game, data: ReplyToken) -> int:
    """The position the reply answers: the token's, or the game's now when every move since was
    another seat's simultaneous move (phase 5, a sealed bid) AND the seat is asked now exactly
    what it was asked then (``_same_question``). Anything else makes the reply stale: other
    seats' moves can end the phase (the last power of a round starts the next round's auction)
    and leave the seat facing another question, which a reply to the old one must not answer."""
    if data.seq >= game.seq:
        return data.seq
    since = list(Move.objects.filter(game=game, seq__gt=data.seq).values_list("seat", "action"))
    sealed = game.variant == SEALED_BID
    if all(
        seat != data.seat and _simultaneous(action, sealed) for seat, action in since
    ) and _same_question(game, data):
        return game.seq
    return data.seq


def _same_question(game: Game, data: ReplyToken) -> bool:
    """Whether the seat is awaited now, as it was at the token's position, in the same round,
    step, phase and auction, with exactly the same legal moves (the engine's, compared whole):
    then the reply means now what it meant when the email was sent."""
    then = selectors.game_engine_state_at(game, data.seq)
    now = selectors.game_engine_state(game)
    seat = data.seat

    def where(s: Any) -> tuple[Any, ...]:
        return (s.round, s.step, s.phase, s.auction.plant if s.auction is not None else None)

    return (
        seat in engine.to_act(then)
        and seat in engine.to_act(now)
        and where(then) == where(now)
        and engine.legal(then, seat) == engine.legal(now, seat)
    )


def _now() -> float:
    return time.time()


def _refuse(
    base: dict[str, Any], user: Any, game: Game, data: ReplyToken, code: str, message: str
) -> Received:
    row = InboundMail.objects.create(**base, status=Status.REFUSED, code=code)
    _answer(user, game, row, data, ok=False, message=message)
    return Received(Status.REFUSED, code, answered=True)


def _answer(
    user: Any,
    game: Game,
    row: InboundMail,
    data: ReplyToken,
    *,
    ok: bool,
    message: str,
    plan: bool = False,
) -> None:
    """The answer to the player, through the outbox (sent once, after commit); ``plan``: the
    reply saved a standing order (the answer says which: it is no move of the log's)."""
    outbox = OutboxWriter(game=game)
    outbox.rows.append(
        Notification(
            recipient=user,
            game=game,
            kind=Notification.Kind.REPLY,
            payload={
                "ok": ok,
                "plan": plan,
                "code": row.code,
                "message": message,
                "line": row.line,
                "seat": data.seat,
                "since": data.seq,
                "seq": row.move_seq,
            },
            dedupe_key=f"reply:{row.pk}",
        )
    )
    outbox.flush()
