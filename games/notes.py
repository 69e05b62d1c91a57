"""A player's private note on a game (``GameNote``): written on the game page's note card, shown
there and in their own turn emails, to nobody else (not in the API's state, another player's
page or email). One function per transaction; reading is a selector."""

from __future__ import annotations

from django.db import transaction

from games import selectors
from games.models import Game, GameNote
from games.services.errors import GameNotFound, NotAPlayer, ServiceError

NOTE_MAX = 4000


def note_of(game: Game, user: selectors.Reader) -> str:
    """The reader's own note on ``game`` ('' when none, or for a visitor)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    row = GameNote.objects.filter(game=game, user_id=int(getattr(user, "pk", 0) or 0)).first()
    return row.text if row is not None else ""


def note_set(*, game_id: int, user: selectors.Reader, text: str) -> str:
    """Write the player's note (an empty text deletes it). Only a seated player has one."""
    if len(text) > NOTE_MAX:
        raise ServiceError(
            f"A note holds at most {NOTE_MAX} characters.",
            code="invalid_field",
            details={"field": "note"},
        )
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise GameNotFound()
        if selectors.seat_of(game, user) is None:
            raise NotAPlayer()
        uid = int(getattr(user, "pk", 0) or 0)
        if not text.strip():
            GameNote.objects.filter(game=game, user_id=uid).delete()
            return ""
        GameNote.objects.update_or_create(game=game, user_id=uid, defaults={"text": text})
        return text
