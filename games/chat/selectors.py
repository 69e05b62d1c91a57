"""Chat reads: the messages a viewer may see (players; spectators only where the game allows),
without hidden ones or those of people the viewer muted."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from games import selectors
from games.models import ChatMessage, ChatMute, Game
from games.services.errors import NotAPlayer


def can_read(game: Game, user: selectors.Reader) -> bool:
    """Players read their game's chat; everyone does where the game says ``chat_public``.

    The seats are the ones read once per request (``selectors.seat_of``): the game page asks
    here, again in ``messages_for`` and for the seat of the viewer, without a query each."""
    if (game.options or {}).get("chat_public"):
        return True
    return selectors.seat_of(game, user) is not None


def messages_for(
    game: Game,
    user: selectors.Reader,
    *,
    before: int | None = None,
    limit: int = 50,
    since: datetime | None = None,
) -> list[ChatMessage]:
    """Newest last; ``before``: older than that id (paging back); ``since``: created after."""
    if not can_read(game, user):
        raise NotAPlayer("Only the game's players read its chat.")
    qs = ChatMessage.objects.filter(game=game, hidden=False).select_related("author__profile")
    uid = getattr(user, "pk", None)
    if uid is not None:
        qs = qs.exclude(author_id__in=ChatMute.objects.filter(user_id=uid).values("muted_id"))
    if before is not None:
        qs = qs.filter(pk__lt=before)
    if since is not None:
        qs = qs.filter(created_at__gt=since)
    return list(reversed(qs.order_by("-id")[: max(1, min(limit, 200))]))


def author_name(m: ChatMessage) -> str:
    """The author as the game names them: display name, else username; a bot account marked as
    a bot ("name (bot)"), as ``selectors.seat_name`` does everywhere else."""
    profile = getattr(m.author, "profile", None)
    name = (profile.display_name if profile else "") or m.author.get_username()
    if profile is not None and profile.is_bot:
        return _("%(name)s (bot)") % {"name": name}
    return name
