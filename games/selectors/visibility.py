"""Who may see a game: THE rule, for every channel (pages, the API, the event stream, the
calendar, chat, webhooks, emails). A game that is not private is anyone's to read; a private
game exists only for its players, the players its creator invited, its watchers (``Watcher``:
granted by what made it, a private tournament's director and entrants), and staff. To everyone
else it answers as a game that does not exist (404), whatever they ask of it. Only the
invitation link's code lets a stranger see a private game's lobby, while it is open (and join
it). docs/API.md, "Private games", says what this guarantees; tests/games/test_private_games.py
walks every game-scoped URL of the URL configuration against it.

The rule is here alone, in its two forms: a check of one game (``game_visible``, ``game_for``)
and a filter for lists and queries (``game_visible_q``, ``games_visible_among``).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import cast

from django.db.models import Q

from games.models import Game, Invitation, Seat, Tenure, Watcher
from games.selectors.seats import Reader, game_get, game_get_with_seats, seat_of


def not_private() -> Q:
    """Games anyone may find listed: not private, games from before the option (no key) too.

    Written as a filter, not as ``exclude(options__private=True)``: for a game whose options
    lack the key that comparison is SQL NULL, and the exclusion would drop the game as well."""
    return Q(options__private__isnull=True) | ~Q(options__private=True)


#: The largest id a game can have (a signed 64-bit key): a larger one is no game of ours, and
#: some databases refuse to compare it.
_MAX_ID = 2**63 - 1


def is_private(game: Game) -> bool:
    return bool((game.options or {}).get("private"))


def game_visible_q(user: Reader, *, listing: bool = False) -> Q:
    """The games ``user`` may see, as a filter: every game not private; a private one if they
    hold a seat in it, held one and left it (a substitute took it: they watch it as its other
    watchers do, for what a seat hides is its holder's only), are invited, or are its watchers
    (``Watcher``: seeing it without a seat, as anyone sees a public game). ``listing``: for
    lists (the lobby, games in progress), where staff see what everyone sees (they open a
    private game by its number)."""
    public = not_private()
    if not getattr(user, "is_authenticated", False):
        return public
    if getattr(user, "is_staff", False) and not listing:
        return Q()
    uid = cast(int, getattr(user, "pk", None))  # signed in: a user's key
    theirs = Seat.objects.filter(user_id=uid).values("game_id")
    held = Tenure.objects.filter(user_id=uid).values("game_id")  # a seat they left
    invited = Invitation.objects.filter(user_id=uid).values("game_id")
    watched = Watcher.objects.filter(user_id=uid).values("game_id")
    return public | Q(pk__in=theirs) | Q(pk__in=held) | Q(pk__in=invited) | Q(pk__in=watched)


def games_visible_among(user: Reader, game_ids: Iterable[int]) -> set[int]:
    """Which of ``game_ids`` ``user`` may see (the rule above), in one query: a page naming many
    games (a tournament's tables) links only those."""
    ids = set(game_ids)
    if not ids:
        return ids
    return set(Game.objects.filter(game_visible_q(user), pk__in=ids).values_list("pk", flat=True))


def invite_code_matches(game: Game, code: object) -> bool:
    """Whether ``code`` is the game's invitation link's code (compared in constant time)."""
    return bool(
        isinstance(code, str)
        and code
        and game.invite_code
        and secrets.compare_digest(code.encode(), game.invite_code.encode())
    )


def game_visible(game: Game, user: Reader, *, code: object = "") -> bool:
    """Whether ``user`` may see ``game`` at all (see the rule above). ``code``: the invitation
    link's code, which shows an open private game's lobby to whoever holds it. Uses the seats
    already read for the request (``game_seats``) when there are; at most one query else."""
    if not is_private(game):
        return True
    if game.status == Game.Status.OPEN and invite_code_matches(game, code):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_staff", False):
        return True
    uid = cast(int, getattr(user, "pk", None))  # signed in: a user's key
    if game.seats_read is not None:
        if seat_of(game, user) is not None:
            return True
    elif Seat.objects.filter(game=game, user_id=uid).exists():
        return True
    return any(  # invited, held a seat and left it, or a watcher
        m.objects.filter(game=game, user_id=uid).exists() for m in (Invitation, Tenure, Watcher)
    )


def game_for(
    *, game_id: object, user: Reader, seats: bool = False, code: object = ""
) -> Game | None:
    """The game ``game_id`` if ``user`` may see it (``game_visible``), else None: what every
    game-scoped page, API view and stream asks first, so that a private game is answered as
    one that does not exist. ``seats``: read its seats (with users and profiles) too."""
    if not isinstance(game_id, int | str):  # a path's or a query's value: a number or text
        return None
    try:
        number = int(game_id)
    except ValueError:
        return None
    if not 0 < number <= _MAX_ID:
        return None
    game = game_get_with_seats(game_id=number) if seats else game_get(game_id=number)
    if game is None or not game_visible(game, user, code=code):
        return None
    return game
