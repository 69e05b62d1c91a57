"""The chat's card: the last messages the reader may read, which of them they may change, and
whether they may write (the game's players). A history page has no chat."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypedDict

from django.conf import settings
from django.utils import timezone

from games import selectors
from games.chat import selectors as chat_selectors
from games.models import Game

from .viewing import Viewing


class ChatLine(TypedDict):
    id: int
    author: str
    name: str
    username: str | None
    author_id: int | None
    text: str
    time: datetime
    edited: bool
    mine: bool
    editable: bool


class Chat(TypedDict):
    can_post: bool
    messages: list[ChatLine]


class ChatCard(TypedDict):
    """``templates/games/cards/chat.html``."""

    chat: Chat | None


def chat_card(view: Viewing) -> ChatCard:
    return {"chat": chat_panel(view.game, view.user) if view.history_seq is None else None}


def chat_panel(game: Game, user: selectors.Reader) -> Chat | None:
    """The chat panel: the last messages the viewer may read, which of them they may edit."""
    if not chat_selectors.can_read(game, user):
        return None
    now = timezone.now()
    window = timedelta(minutes=settings.CHAT_EDIT_MINUTES)
    rows = chat_selectors.messages_for(game, user, limit=40)
    return {
        "can_post": selectors.seat_of(game, user) is not None,
        "messages": [
            {
                "id": m.pk,
                "author": chat_selectors.author_name(m),
                "name": chat_selectors.author_name(m),  # for ``|player``, with the username
                "username": m.author.get_username() if m.author_id else None,
                "author_id": m.author_id,
                "text": m.text,
                "time": m.created_at,
                "edited": m.edited_at is not None,
                "mine": m.author_id == getattr(user, "pk", None),
                "editable": m.author_id == getattr(user, "pk", None)
                and now - m.created_at < window,
            }
            for m in rows
        ],
    }
