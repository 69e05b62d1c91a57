"""Chat writes: post, edit (within ``CHAT_EDIT_MINUTES``), report, mute. Only the game's players
post; a player posts at most ``CHAT_RATE`` messages a minute; texts are stored as typed (and
escaped wherever they are shown: pages, emails, the API's JSON), without control characters or
text-direction controls, and shown isolated from the text around them (``<bdi>`` on pages and in
HTML emails, Unicode's isolates in text emails)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import blocks
from games.models import ChatMessage, ChatMute, ChatReport, Game, Seat
from games.restore import committed
from games.services.errors import Blocked, GameNotFound, NotAPlayer, ServiceError

MAX_LENGTH = 1000


class ChatRefused(ServiceError):
    status = 400
    code = "invalid_message"
    default_message = "The message cannot be posted."


class ChatThrottled(ServiceError):
    status = 429
    code = "throttled"
    default_message = "Too many messages: wait a moment."


class MessageNotFound(ServiceError):
    status = 404
    code = "message_not_found"
    default_message = "No such message."


#: Control characters a typed message may hold: line breaks and tabs.
_TYPED_CONTROLS = frozenset("\n\r\t")
#: Unicode's bidirectional embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO; LRI, RLI,
#: FSI, PDI): invisible, and each turns the text after it around ("Trojan Source"), in the message
#: and, left open, around it. Nobody types them; the marks (LRM, RLM, ALM) stay allowed.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _clean(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ChatRefused("Write something.", details={"field": "text"})
    text = text.strip()
    # A NUL cannot be stored (PostgreSQL text) and no other control character is typed.
    if any((c < " " and c not in _TYPED_CONTROLS) or c == "\x7f" for c in text):
        raise ChatRefused("A message cannot contain control characters.", details={"field": "text"})
    if not _BIDI_CONTROLS.isdisjoint(text):
        raise ChatRefused(
            "A message cannot contain text-direction control characters (U+202A-U+202E, "
            "U+2066-U+2069).",
            details={"field": "text"},
        )
    if len(text) > MAX_LENGTH:
        raise ChatRefused(
            f"A message is at most {MAX_LENGTH} characters.", details={"field": "text"}
        )
    return text


def chat_post(*, game_id: int, user: Any, text: object) -> ChatMessage:
    clean = _clean(text)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound()
    uid = int(getattr(user, "pk", 0) or 0)
    players = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    if uid not in players:
        raise NotAPlayer("Only the game's players write in its chat.")
    if blocks.blocked_by_any(uid, players):
        # A player of the game blocked the author (after they sat down together: nobody joins
        # a game across a block): the author no longer writes where that player reads.
        raise Blocked("A block stands between you and a player of this game: no chat.")
    since = timezone.now() - timedelta(minutes=1)
    recent = ChatMessage.objects.filter(game=game, author=user, created_at__gte=since).count()
    if recent >= settings.CHAT_RATE:
        raise ChatThrottled(details={"retry_after": 60})
    message = ChatMessage.objects.create(game=game, author=user, text=clean)
    committed.chat_committed(message)  # its line in the delivery journal, after the commit
    return message


def chat_edit(*, game_id: int, message_id: int, user: Any, text: object) -> ChatMessage:
    """Change one's own message of game ``game_id`` (a message of another game, named through
    this game's address, is not found: nothing is changed). The edit's line goes to the delivery
    journal after the commit: a restore to before it would bring the old text back untold."""
    clean = _clean(text)
    with transaction.atomic():
        m = (
            ChatMessage.objects.select_for_update()
            .filter(pk=message_id, game_id=game_id, author=user)
            .first()
        )
        if m is None:
            raise MessageNotFound()
        if timezone.now() - m.created_at > timedelta(minutes=settings.CHAT_EDIT_MINUTES):
            raise ChatRefused(
                f"A message can be changed for {settings.CHAT_EDIT_MINUTES} minutes.",
                code="edit_window_over",
            )
        m.text = clean
        m.edited_at = timezone.now()
        m.save(update_fields=["text", "edited_at"])
        committed.chat_edited(m)  # its line in the delivery journal, after the commit
    return m


def chat_report(*, game_id: int, message_id: int, user: Any) -> None:
    """A player of game ``game_id`` reports one of its messages to the moderators (once)."""
    m = ChatMessage.objects.filter(pk=message_id, game_id=game_id).first()
    if m is None or not Seat.objects.filter(game_id=m.game_id, user=user).exists():
        raise MessageNotFound()
    try:
        with transaction.atomic():
            ChatReport.objects.create(message=m, reporter=user)
    except IntegrityError:
        pass  # reported already: once is enough


def chat_mute(*, user: Any, muted_id: int, on: bool = True) -> None:
    if on:
        ChatMute.objects.get_or_create(user=user, muted_id=muted_id)
    else:
        ChatMute.objects.filter(user=user, muted_id=muted_id).delete()
