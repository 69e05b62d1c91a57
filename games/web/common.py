"""What every page of ``games.web`` asks first: the reader's time zone and language, whether the
visitor may see the game (THE rule, ``selectors.game_for``), the seats' names. Nothing here
renders a page; the page modules (``home``, ``create``, ``lobby``, ``game``, ``moves``,
``history``, ``quote``, ``language``, ...) do."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.zones import request_zone
from games import selectors
from games.models import Game

P = ParamSpec("P")


def with_user_timezone(
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """Render dates in the signed-in user's time zone (their profile's), else the browser's,
    else UTC (``accounts.zones.request_zone``)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        timezone.activate(request_zone(request))
        try:
            return view(request, *args, **kwargs)
        finally:
            timezone.deactivate()

    return wrapped


def lang() -> str:
    """The reader's language, two letters ("en", "ja")."""
    return (translation.get_language() or "en")[:2]


def game_or_404(
    request: HttpRequest, game_id: int, *, code: object = "", seats: bool = False
) -> Game:
    """The game if the visitor may see it (``selectors.game_for``, THE rule: a private game is
    hidden from all but its players, invitees and staff), else the "no such game" page. Every
    page of a game asks this first, before asking anyone to log in: a private game answers as
    one that does not exist. ``code``: its invitation link's code, if the request carries it;
    ``seats``: read its seats (users, profiles) in the same statement (a page that shows them)."""
    game = selectors.game_for(game_id=game_id, user=request.user, code=code, seats=seats)
    if game is None:
        raise Http404(_("No such game."))
    return game


def login_redirect(request: HttpRequest) -> HttpResponse:
    """To the login page, back here afterwards (what ``login_required`` does, for the views
    that must first tell whether the game exists for the visitor)."""
    return redirect_to_login(request.get_full_path())


def seat_names(game: Game) -> dict[int, str]:
    """Each seat's name as the pages write it."""
    return {s.seat: selectors.seat_name(s) for s in selectors.game_seats(game)}


def fresh(game: Game) -> Game:
    """The game as the database holds it now (after a service changed it)."""
    return selectors.game_get(game_id=game.pk) or game
