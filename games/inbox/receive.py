"""One handler for every email sent to a reply address: the MTA pipe (``manage.py receive_mail``),
the provider's inbound webhook and the dev mailbox's reply button all call ``mail_receive``.
A message to a bounce address (a delivery status notification) is handed to
``games.mailevents.bounces`` first and logged there.

What proves a reply is the player's is the reply address: its signed token (``tokens``) is the
credential, as the same email's one-tap links are, and whoever holds a turn email can move with
it. The ``From`` line is written by the sender (read strictly, in one place: ``sender``); the
check of 4 keeps out replies from another account's or an unconfirmed address (mistakes,
aliases, a forward replied to by someone careless), it does not authenticate anyone. Where our
MTA checks DMARC, its verdict does (``authres``, ``INBOUND_AUTHSERV_ID``).

What it does with a message, in order (each refusal is logged as an ``InboundMail`` row, and so
is a message the parser cannot read at all: ``ignored``, code ``unreadable``, its bytes kept):

1. The same Message-ID seen before: ignored (a retried delivery is handled once).
2. An automatic message (RFC 3834 ``Auto-Submitted`` other than ``no``, ``Precedence`` bulk, junk
   or list, an out-of-office or bounce): ignored, never answered (no mail loops).
3. No reply token, a forged one, or one for a seat its player never held: ignored, not
   answered (a stranger gets no mail from us: no backscatter).
4. No readable From at all, missing or doubtful (``sender``: two mailboxes, a From field the
   parser hid): refused (``no_sender``; ignored with that code when 3 found no good token); a
   From that is not the seat's player's (an alias, a work address the account has not added
   and confirmed: ``accounts.senders.speaks_for``): refused (``wrong_sender``); a From that
   is, but which our MTA's DMARC check failed: refused (``sender_not_authenticated``). Each
   way the ACCOUNT's address is told, never any address the message names (``_wrong_sender``).
5. A token of a seat its player left (resigned, or a substitute took it: ``seat_left``, the
   API's code, before anything of the reply is read), an expired token, a token already used, a
   reply that is not a move, a move the engine refuses, a stale position: refused, and the
   player is answered once with the reason and what they can do now. Every refusal of 4 and 5
   shares one cap: at most ``INBOUND_REFUSALS_ANSWERED_PER_HOUR`` answers an hour to one
   account in one game (``_refuse``: a loop with an auto-responder that does not say it is one
   stops, and a stranger who writes to a reply address they saw cannot make us write to its
   player without end). Counted by the account answered, not by the seat: after a substitute
   took a seat, replies with the former holder's tokens do not use up the substitute's answers.
6. Otherwise the move goes through ``move_submit`` (source ``email``, the token's seq as
   ``expected_seq``) or the plan through ``plan_set``, and the player gets the move as the log
   writes it. ``resign`` is two steps (``_resign_asked``): a first ``resign`` changes nothing and
   the account's address is asked to confirm by replying ``resign`` to that answer (a token of
   kind ``RESIGN``, 24 hours); only that reply leaves the game, and that token does nothing else.

All of it in one transaction: the move, the log row and the answer (outbox) commit together.

Whatever a message holds, handling it never raises but for the database being away (the pipe
then exits 75 and the MTA retries; the webhook answers 503 and the provider retries): any other
exception while handling ONE message is logged with its Message-ID, the message is kept whole
(an ``InboundMail`` row, status ``failed``, its bytes in ``raw``, in the admin), and the token's
player is answered "not understood" (or, when they left the seat, that they no longer hold it)
when the normal path's sender rules let it through (not automatic, from their address, not
failed by DMARC), under the same cap as the refusals (``_answer_failed``). The pipe exits 0 and
the webhook answers 200: a provider retrying a message that always fails would retry it forever.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from email import policy
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses
from typing import Any

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.senders import speaks_for
from games import engine, selectors
from games.callers import User
from games.inbox.authres import message_dmarc_failed
from games.inbox.parse import ParseError, body_text, is_resign, parse_command, reply_line
from games.inbox.sender import message_sender
from games.inbox.tokens import ADDRESS, RESIGN, BadToken, ReplyToken, read_token
from games.mailevents.bounces import bounce_receive
from games.models import Game, InboundMail, Move, Notification, Seat, Tenure
from games.notifications.outbox import OutboxWriter
from games.plans.services import plan_set
from games.services.errors import ServiceError, StaleState
from games.services.moves import move_submit
from games.services.seats import resign_check, seat_resign
from games.sheets.inbox import sheet_reply_apply
from games.sheets.mailtext import SheetLineError, is_sheet_reply
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


_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*([^\r\n]{1,255})", re.IGNORECASE | re.MULTILINE)
#: Header fields the mail system adds on the way (each hop, each MX, the final delivery): two
#: deliveries of one message differ in them only.
_TRACE = re.compile(
    rb"^(received|return-path|delivered-to|x-original-to|envelope-to|x-envelope-[\w-]+)[ \t]*:",
    re.IGNORECASE,
)


def dedupe_key(raw: bytes) -> str:
    r"""The message's Message-ID, or, when it has none, ``sha256:`` and a hash of its bytes but
    for the trace fields: a retry after a lost answer, or a copy that came by a second MX with
    one more ``Received:`` line, is the same message (stored once, never answered twice).

    >>> a = b"Received: by mx1\r\nFrom: a@x\r\n\r\npass\r\n"
    >>> b = b"Received: by mx2\r\nReceived: by mx1\r\nFrom: a@x\r\n\r\npass\r\n"
    >>> dedupe_key(a) == dedupe_key(b) != dedupe_key(a.replace(b"pass", b"bid 3"))
    True
    """
    raw = raw.replace(b"\x00", b"")
    cut = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=-1)
    head, body = (raw, b"") if cut < 0 else (raw[:cut], raw[cut:])
    found = _MESSAGE_ID.search(head)
    if found:
        key = found.group(1).decode("utf-8", "replace").strip()[:255]
        if key:
            return key
    kept: list[bytes] = []
    trace = False
    for line in head.splitlines(keepends=True):
        if line[:1] in (b" ", b"\t"):  # a folded line belongs to the field above
            if not trace:
                kept.append(line)
            continue
        trace = bool(_TRACE.match(line))
        if not trace:
            kept.append(line.rstrip(b"\r\n") + b"\n")
    return "sha256:" + hashlib.sha256(b"".join(kept) + body).hexdigest()


def _automatic(msg: Message, sender: str) -> str:
    """Why the message is automatic, never to be answered ("" if a person wrote it): a delivery
    report or ``Return-Path: <>`` (``MAIL FROM:<>`` as the LMTP service writes it) is
    ``bounce`` whatever its From. A From missing or doubtful is not a sign of one: it is
    ``no_sender`` (``_sender_refusal``), answered to the token's account when the token is good;
    it was logged ``bounce``, which hid a forged or mangled From among the delivery reports."""
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return "auto_submitted"
    if str(msg.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list"):
        return "bulk"
    if msg.get("X-Autoreply") or msg.get("X-Autorespond") or msg.get("X-Auto-Response-Suppress"):
        return "auto_reply"
    if msg.get_content_type() == "multipart/report" or str(msg.get("Return-Path", "")) == "<>":
        return "bounce"
    if sender.split("@", 1)[0] in ("mailer-daemon", "postmaster"):
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
    """Answer "not understood" to the token's player, if the normal path would have read the
    message past its sender checks: not automatic (``_automatic``: no mail loop), its From the
    account's and not failed by our MTA's DMARC check (``_sender_refusal``, the very functions
    ``_handle`` applies; a stranger, or a forger of the player's From, gets nothing); and under
    the refusals' cap (``_refused_lately``: a message that crashes the handler, sent again and
    again with new Message-IDs, gets its player a few answers an hour, no more). The player is
    found as ``_handle`` finds them (``_holder``) and the row names them, the game and the
    seat whether or not they are answered: a player a substitute replaced, whom the seat's row
    no longer names, is answered too, that they no longer hold the seat (as ``seat_left`` is),
    as is one who resigned; nothing of the seat's position, which is not theirs now. Each step
    may fail on the same odd message: then nobody is answered, the row is kept."""
    try:
        with transaction.atomic():
            msg = BytesParser(policy=policy.compat32).parsebytes(raw.replace(b"\x00", b""))
            sender = message_sender(msg)
            row.sender = sender[:254]
            token = _token(msg, envelope)
            if token is None:
                row.save(update_fields=["sender"])
                return False
            row.token = token
            data = read_token(token, expired_ok=True)
            holder = _holder(data)
            if holder is None:
                row.save(update_fields=["sender", "token"])
                return False
            user, game, left = holder
            row.user, row.game, row.seat = user, game, data.seat
            row.save(update_fields=["sender", "token", "user", "game", "seat"])
            if _automatic(msg, sender) or _sender_refusal(msg, user, sender):
                return False
            lately = _refused_lately(user, game, but=row.pk)
            if lately >= settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR:
                log.info("inbound: failed message of game %s for user %s not answered "
                         "(%s this hour)", game.pk, user.pk, lately + 1)  # fmt: skip
                return False
            if left:  # told as ``seat_left`` is (``builders._left``); the row stays failed
                _answer(user, game, row, data, ok=False, message=SEAT_LEFT, more={"left": True})
            else:
                _answer(user, game, row, data, ok=False, message=NOT_UNDERSTOOD)
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
        return _unreadable(raw, via=via)
    sender = message_sender(msg)
    # The stored key: a message without a Message-ID is known by its bytes, so that a later
    # delivery of it is a duplicate, ignored and not answered (``dedupe_key``).
    message_id = str(msg.get("Message-ID", "")).strip()[:255] or dedupe_key(raw)
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


def _unreadable(raw: bytes, *, via: str) -> Received:
    """A message the parser gives up on (3,000 nested parts: ``RecursionError``): logged like any
    other (status ``ignored``, code ``unreadable``), its bytes kept in ``raw`` for an operator,
    never answered. Its sender as its header alone reads (the body is what cannot be read)."""
    log.info("inbound %s: unreadable message ignored", via)
    try:
        sender = message_sender(BytesParser(policy=policy.compat32).parsebytes(raw, True))
    except Exception:
        sender = ""
    try:
        with transaction.atomic():
            InboundMail.objects.create(
                message_id=dedupe_key(raw),
                sender=sender[:254],
                via=via[:16],
                status=Status.IGNORED,
                code="unreadable",
                raw=raw,
            )
    except IntegrityError:  # delivered before: the first delivery's row is kept
        return Received(Status.IGNORED, "duplicate")
    return Received(Status.IGNORED, "unreadable")


def _ignore(base: dict[str, Any], code: str) -> Received:
    InboundMail.objects.create(**base, status=Status.IGNORED, code=code)
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
    # Without a readable From and a good token there is nobody to tell: ignored ``no_sender``.
    unsigned = "" if sender else "no_sender"
    if token is None:
        return _ignore(base, unsigned or "no_token")
    base["token"] = token
    try:
        data = read_token(token, expired_ok=True)
    except BadToken:
        return _ignore(base, unsigned or "forged")
    holder = _holder(data)
    if holder is None:
        return _ignore(base, unsigned or "no_game")
    user, game, left = holder
    base.update(game=game, seat=data.seat, user=user)
    refused = _sender_refusal(msg, user, sender)
    if refused:  # the token's account is told, under the cap; nothing of the reply is read
        return _wrong_sender(base, user, game, data, sender, refused)
    if left:  # nothing of the reply is read: no move, plan or sheet is theirs to make
        return _refuse(base, user, game, data, "seat_left", SEAT_LEFT)
    if data.expires < _now():
        return _refuse(base, user, game, data, "token_expired", "This reply address has expired.")
    if used:
        return _refuse(
            base, user, game, data, "token_used", "A move was already made with this email."
        )
    text = body_text(msg).replace("\x00", "")  # a NUL encoded in the body
    if data.kind == RESIGN:  # the answer to a first ``resign``: it confirms that, nothing else
        return _resign_confirmed(base, user, game, data, text)
    if is_sheet_reply(text):  # "ok" or edited lines of the round sheet (games.sheets)
        base["line"] = text.strip().splitlines()[0][:200] if text.strip() else ""
        try:
            seq, will = sheet_reply_apply(text=text, game=game, user=user, seat=data.seat)
        except SheetLineError as exc:  # the answer names the line, the word and the right form
            base["line"] = exc.line[:200]
            more = {"word": exc.word, "example": exc.example}
            return _refuse(base, user, game, data, exc.code, exc.message, more=more)
        except (ParseError, ServiceError) as exc:
            return _refuse(base, user, game, data, exc.code, exc.message)
        row = InboundMail.objects.create(**base, status=Status.APPLIED, move_seq=seq)
        _answer(user, game, row, data, ok=True, message="\n".join(will), plan=True)
        return Received(Status.APPLIED, "", answered=True, move_seq=seq)
    try:
        line = reply_line(text)
        base["line"] = line[:200]
        state = engine.state_load(
            game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
        )
        command = parse_command(line, state, data.seat, engine.map_load(game.map))
    except ParseError as exc:
        return _refuse(base, user, game, data, exc.code, exc.message)
    if command.kind == "resign":
        return _resign_asked(base, user, game, data)
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


def _sender_refusal(msg: Message, user: User, sender: str) -> str:
    """Why a message with a good token for ``user`` is not read (its code), or "": no readable
    From (``no_sender``), a From that is not the account's (``wrong_sender``), or one our MTA's
    DMARC check failed (``sender_not_authenticated``, ``INBOUND_AUTHSERV_ID``). One function
    for the normal path and the safety net (``_answer_failed``), so that neither answers what
    the other would not read."""
    if not sender:
        return "no_sender"
    if not speaks_for(user, sender):
        return "wrong_sender"
    if message_dmarc_failed(msg):
        return "sender_not_authenticated"
    return ""


#: The refusal of a reply from a player who no longer holds the token's seat (the API's and the
#: move service's code for it, ``seat_left``; the answer's own sentence: ``builders``).
SEAT_LEFT = "You no longer hold a seat in this game: your reply was not made."


def _holder(data: ReplyToken) -> tuple[User, Game, bool] | None:
    """The token's player and game, and whether the player left the token's seat; None when
    they never held it (a game deleted, a lobby left before the start: ignored, ``no_game``).
    Left: they resigned and the bot plays the seat (``Seat.offered`` ``left``), or their tenure
    of it ended (a substitute took it; the seat's row names the substitute now). Such a reply
    is refused ``seat_left`` before anything of it is read: parsed against the seat's position,
    a ``pass`` was answered "nothing to pass" as though the seat were still theirs. One query,
    two when the seat's row names someone else."""
    seat = (
        Seat.objects.select_related("user", "game")
        .filter(game_id=data.game_id, seat=data.seat, user_id=data.user_id)
        .first()
    )
    if seat is not None:
        return seat.user, seat.game, seat.offered == Seat.Offered.LEFT
    tenure = (
        Tenure.objects.select_related("user", "game")
        .filter(game_id=data.game_id, seat=data.seat, user_id=data.user_id)
        .exclude(to_seq=None)
        .first()
    )
    return None if tenure is None else (tenure.user, tenure.game, True)


def _resign_asked(base: dict[str, Any], user: User, game: Game, data: ReplyToken) -> Received:
    """A ``resign`` reply to an ordinary email (a turn email, the game-started email, any other
    that carries a reply address): nothing changes. Anyone holding any email of the player (a
    forward; a From line is easy to forge) could write it, and leaving is for good; so the
    ACCOUNT's address is asked to confirm, by replying ``resign`` to the answer, whose reply
    address is a ``RESIGN`` token (``games.notifications.builders``, good for
    ``tokens.RESIGN_CONFIRM_HOURS``): a forger never sees it. Logged as a refusal (code
    ``resign_confirm``: the resignation was not made), under the refusals' cap, so that
    writing ``resign`` again and again gets the player a few emails an hour, no more. A seat
    that cannot resign (left already, the game over) is refused at once, as ``seat_resign``
    would."""
    try:
        resign_check(game_id=game.pk, user=user)
    except ServiceError as exc:
        return _refuse(base, user, game, data, exc.code, exc.message)
    return _refuse(
        base, user, game, data, "resign_confirm", "Reply resign to this email to leave the game."
    )


#: The refusal of anything but ``resign`` sent to a ``RESIGN`` token (``games.web.errors``
#: translates it by its code, ``resign_only``).
RESIGN_ONLY = (
    "This email only confirms leaving the game: reply resign to it to leave, or make your move "
    "by replying to your newest turn email."
)


def _resign_confirmed(
    base: dict[str, Any], user: User, game: Game, data: ReplyToken, text: str
) -> Received:
    """A reply to the "confirm leaving" email (a ``RESIGN`` token, expiry and once-only checked
    by the caller): ``resign`` leaves the game; anything else is refused (``resign_only``): the
    token was made for this one act, the player moves by their turn emails."""
    try:
        line = reply_line(text)
        base["line"] = line[:200]
        if not is_resign(line):
            raise ParseError("resign_only", RESIGN_ONLY)
        seat_resign(game_id=game.pk, user=user)
    except (ParseError, ServiceError) as exc:
        return _refuse(base, user, game, data, exc.code, exc.message)
    row = InboundMail.objects.create(**base, status=Status.APPLIED, move_seq=game.seq)
    _answer(user, game, row, data, ok=True, message="", resigned=True)
    return Received(Status.APPLIED, "", answered=True, move_seq=game.seq)


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


#: An address the owner's answer may show as it came: a plain ``local@domain`` of letters (any
#: script), digits and the punctuation addresses use, nothing a mail client would make a link of
#: but the address itself (no ``:`` or ``/``), no spaces or control characters.
_SHOWN = re.compile(r"[\w!#$%&'*+=?^`{|}~.-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")


def shown_address(sender: str) -> str:
    """The sender's address as the answer to the account's owner shows it, or "" when it is not
    a plain address (anyone can write a From line: it must not carry a stranger's text, a link
    or a look-alike of ours, into our mail).

    >>> shown_address("taro.work+pg@example.co.jp"), shown_address("太郎@例え.jp")
    ('taro.work+pg@example.co.jp', '太郎@例え.jp')
    >>> shown_address("http://evil.example/@x.example"), shown_address("a b@x.example")
    ('', '')
    """
    return sender if len(sender) <= 254 and _SHOWN.fullmatch(sender) else ""


def _wrong_sender(
    base: dict[str, Any], user: User, game: Game, data: ReplyToken, sender: str, code: str
) -> Received:
    """A reply with a good token whose From is not the account's (``wrong_sender``: an alias, a
    work address, a mail client with another From, a forward replied to by someone else), is
    the account's but our MTA's DMARC check found it forged (``sender_not_authenticated``), or
    cannot be read at all (``no_sender``: missing, two mailboxes, a From field hidden from the
    parser): nothing is read of it, and the account's own address is told (where the reply said
    it came from and which addresses moves are taken from; for the other two, what to do
    instead). Never the sender, nor any address the message names: that would be backscatter
    to whoever wrote the From line (perhaps someone else's address), and would tell whoever holds
    a turn email that the address is live. A refusal like the others, under the same cap
    (``_refuse``): someone writing to the reply address again and again gets its player a few
    answers an hour, no more. The answer holds no state of the game (only its number, its map
    and the two addresses) and nothing the message said. An account without an address:
    ignored, there is nobody to tell. The From line proves nothing by itself (anyone can write
    any): a stranger is kept out only by not having the reply address's token, and one who has
    a turn email and writes the player's From is taken but where DMARC fails (module
    docstring)."""
    if not user.email:
        return _ignore(base, code)
    more = {"sender": shown_address(sender)}
    return _refuse(base, user, game, data, code, "", more=more)


def _refuse(
    base: dict[str, Any],
    user: User,
    game: Game,
    data: ReplyToken,
    code: str,
    message: str,
    *,
    more: Mapping[str, str | bool] | None = None,
) -> Received:
    """A refused reply: logged, and answered with the reason, unless the refusals in this game
    for this account (``user``, the token's, the one answered) of the last hour reached
    ``INBOUND_REFUSALS_ANSWERED_PER_HOUR`` (``_refused_lately``). An auto-responder that does
    not say it is one (no ``Auto-Submitted``) answers each answer of ours: without the cap the
    two would write to each other for ever; with it, the loop stops after a few, and a person
    who mistypes is answered again an hour later. ``more``: added to the answer's payload."""
    lately = _refused_lately(user, game)
    row = InboundMail.objects.create(**base, status=Status.REFUSED, code=code)
    if lately >= settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR:
        log.info("inbound: refusal %s of game %s for user %s not answered (%s this hour)",
                 code, game.pk, user.pk, lately + 1)  # fmt: skip
        return Received(Status.REFUSED, code, answered=False)
    _answer(user, game, row, data, ok=False, message=message, more=more)
    return Received(Status.REFUSED, code, answered=True)


def _refused_lately(user: User, game: Game, *, but: int | None = None) -> int:
    """The refusals (and failed messages, ``_answer_failed``) of the last hour in ``game`` whose
    token was ``user``'s, answered or not (``but``: a row left out, the one being handled): the
    count the cap is held to. By the account answered, not the seat: a seat's former holder
    (replies with their old tokens, their own or a stranger's with a forwarded email) and the
    substitute who took it each have their own answers, and neither uses up the other's. Rows
    logged before ``InboundMail.user`` was kept have none and do not count (for that hour
    after the deploy, an account may get up to the cap's number of answers more)."""
    # The account's row locked until the caller's transaction ends: two workers refusing this
    # account's replies at once would each count the same rows and both answer past the cap
    # (an outsider saw 6 answers for a cap of 5 from 6 processes). The second waits here, then
    # counts the first's row. Held for one message's handling; SQLite serialises writes anyway.
    User.objects.select_for_update().filter(pk=user.pk).exists()
    since = timezone.now() - timedelta(hours=1)
    rows = InboundMail.objects.filter(
        user=user, game=game, status__in=(Status.REFUSED, Status.FAILED), created_at__gte=since
    )
    if but is not None:
        rows = rows.exclude(pk=but)
    return rows.count()


def _answer(
    user: User,
    game: Game,
    row: InboundMail,
    data: ReplyToken,
    *,
    ok: bool,
    message: str,
    plan: bool = False,
    resigned: bool = False,
    more: Mapping[str, str | bool] | None = None,
) -> None:
    """The answer to the player, through the outbox (sent once, after commit); ``plan``: the
    reply saved a standing order (the answer says which: it is no move of the log's); ``more``:
    what else the answer's email reads (``wrong_sender``'s shown address; ``left``: the failed
    message of a player who left the seat)."""
    outbox = OutboxWriter(game=game)
    outbox.rows.append(
        Notification(
            recipient=user,
            game=game,
            kind=Notification.Kind.REPLY,
            payload={
                "ok": ok,
                "plan": plan,
                "resigned": resigned,
                "code": row.code,
                "message": message,
                "line": row.line,
                "seat": data.seat,
                "since": data.seq,
                "seq": row.move_seq,
                **(more or {}),
            },
            dedupe_key=f"reply:{row.pk}",
        )
    )
    outbox.flush()
