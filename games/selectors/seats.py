"""A game and its seats as the server reads them: the game by its number, its seats (with
each holder's user and profile) read once per request and kept on the instance
(``Game.seats_read``), the reader's own seat, and the deadline the others wait on. The other
reads of a game's seats go through ``game_seats``, so a page reads them once.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from games.fastpath import rows
from games.models import Game, Seat

#: Who reads a game: a signed-in user, a visitor without an account, or nobody (a task's read).
Reader = AbstractBaseUser | AnonymousUser | None


def game_get(*, game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


def game_get_with_seats(*, game_id: int) -> Game | None:
    """The game with its seats (user, profile) cached for ``game_seats``, read in ONE statement
    (one snapshot; SQL built once by ``games.fastpath.rows``: this runs on every state read).
    For reads only: a writer locks the game row first and then reads the seats (a row-locking
    join would hand back seat rows from before the lock was granted)."""
    game, seats = rows.seats_with_users(game_id, with_game=True)
    if not seats:  # no such game (a game keeps at least its creator's seat while it exists)
        game = game_get(game_id=game_id)
        if game is not None:
            game.seats_read = []
        return game
    assert game is not None  # read with its seats
    game.seats_read = seats
    return game


def game_seats(game: Game) -> list[Seat]:
    """Seats with user and profile, cached on the instance for the request."""
    cached = game.seats_read
    if cached is None:
        prefetched = getattr(game, "_prefetched_objects_cache", {}).get("seats")
        if prefetched is not None:  # a list's prefetch_related("seats__user__profile")
            cached = sorted(prefetched, key=lambda s: s.seat)
        else:
            qs = Seat.objects.filter(game=game).select_related("user__profile").order_by("seat")
            cached = list(qs)
        game.seats_read = cached
    return cached


def seat_of(game: Game, user: Reader) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in game_seats(game) if s.user_id == user.pk), None)


def game_deadline(game: Game) -> datetime | None:
    """The earliest deadline among the seats whose move is awaited from a person (or a bot of
    their own). A seat the server's bot plays (``bot_controlled``) is due at once and moves
    within seconds: its deadline is bookkeeping for the worker, not a time anyone waits for, so
    it is no deadline of the game's (a page said "deadline 0 minutes ago" while a bot moved)."""
    awaited = set(game.to_act or [])
    deadlines = [
        s.deadline
        for s in game_seats(game)
        if s.seat in awaited and s.deadline and not s.bot_controlled
    ]
    return min(deadlines) if deadlines else None
