"""Lists of games: the games listed to a reader (newest first, with their filters), the lobby's
open games, the reader's invitations, and the games awaiting their move. Each filters by the
rule of who may see a game (``games.selectors.visibility``), so no list shows a private game
to whoever may not see it.
"""

from __future__ import annotations

from typing import cast

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from games.models import Game, Seat
from games.selectors.seats import Reader
from games.selectors.visibility import game_visible_q, not_private


def game_list(
    *, user: Reader, status: str | None = None, mine: bool = False, seeking_substitute: bool = False
) -> QuerySet[Game]:
    """Games, newest first. A private game is listed only to its players and the players it
    invited, whatever its status (``game_visible_q``): lists of games in progress and players'
    profiles do not show it either. ``seeking_substitute``: only running games with a seat
    offered to substitutes (``Seat.offered``)."""
    qs = Game.objects.all().order_by("-created_at", "-id")
    qs = qs.filter(game_visible_q(user, listing=True))
    if status:
        qs = qs.filter(status=status)
    if seeking_substitute:
        offered = Seat.objects.filter(game=OuterRef("pk")).exclude(offered="")
        qs = qs.filter(Exists(offered), status=Game.Status.RUNNING)
        qs = qs.filter(Q(options__substitutes=True) | Q(options__substitutes__isnull=True))
    if mine:
        if not getattr(user, "is_authenticated", False):
            return qs.none()
        qs = qs.filter(seats__user_id=cast(int, getattr(user, "pk", None)))
    return qs.prefetch_related("seats__user__profile")


def open_games(
    *,
    map: str = "",
    players: int | None = None,
    max_turn_hours: int | None = None,
    free: bool = False,
) -> QuerySet[Game]:
    """Open games for the lobby, with its filters (map, number of players, longest turn, a free
    seat); private games are not listed."""
    qs = (
        Game.objects.filter(status=Game.Status.OPEN)
        .filter(not_private())
        .order_by("-created_at", "-id")
    )
    if map:
        qs = qs.filter(map=map)
    if players:
        qs = qs.filter(max_players=players)
    if max_turn_hours:
        qs = qs.filter(options__turn_hours__lte=max_turn_hours)
    if free:  # in the query, not after the page's slice (full games left open would hide others)
        qs = qs.alias(taken=Count("seats")).filter(taken__lt=F("max_players"))
    return qs.prefetch_related("seats__user__profile")


def invitations_for(user: Reader) -> list[Game]:
    """Open games ``user`` was invited to and has not joined (their home page lists them)."""
    if not getattr(user, "is_authenticated", False):
        return []
    uid = cast(int, getattr(user, "pk", None))  # signed in: a user's key
    return list(
        Game.objects.filter(status=Game.Status.OPEN, invitations__user_id=uid)
        .exclude(seats__user_id=uid)
        .order_by("-created_at")
        .prefetch_related("seats__user__profile")[:20]
    )


def games_awaiting(user: Reader) -> QuerySet[Game]:
    """Running games where the user's move is awaited (for pages and digests)."""
    uid = cast(int, getattr(user, "pk", None))  # a user's key (callers pass users)
    seats = Seat.objects.filter(user_id=uid, game__status=Game.Status.RUNNING).select_related(
        "game"
    )
    ids = [s.game_id for s in seats if s.seat in (s.game.to_act or [])]
    return Game.objects.filter(Q(pk__in=ids))
