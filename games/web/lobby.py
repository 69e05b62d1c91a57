"""An open game's page, the lobby: its seats, the join, leave, start, bot, remove and invite
forms (posted to ``game_lobby``), and a private game's invitation link."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.site import absolute
from games import numbers, selectors, services
from games.models import Game
from games.selectors.detail import invite_path
from games.selectors.visibility import invite_code_matches
from games.services import lobby
from games.templatetags.names import join_names
from powergrid.maps import name_in

from . import board_svg, present
from .common import fresh, game_or_404, lang, login_redirect, seat_names, with_user_timezone
from .context import LobbyPage, RefusedError
from .errors import error_text
from .forms import bot_level_choices
from .frame import page_base


@require_POST
def game_lobby(request: HttpRequest, game_id: int, what: str) -> HttpResponse:
    game = game_or_404(
        request, game_id, code=request.POST.get("code", "") if what == "join" else ""
    )
    if not request.user.is_authenticated:
        return login_redirect(request)
    fn = {"leave": services.game_leave, "start": services.game_start}
    if what not in (*fn, "join", "bot", "remove", "invite"):
        raise Http404()
    # A seat that is not a number is a 400 (games.numbers.BadNumber), before anything is done.
    if what == "remove":
        seat_no = numbers.from_query(request.POST, "seat", low=0, high=lobby.PLAYERS_MAX)
    try:
        result: object
        if what == "join":
            result = services.game_join(
                game_id=game.pk, user=request.user, code=request.POST.get("code", "")
            )
        elif what == "invite":
            result = services.game_invite(
                game_id=game.pk, user=request.user, username=request.POST.get("username", "")
            )
        elif what == "bot":
            result = services.game_bot_add(
                game_id=game.pk, user=request.user, kind=request.POST.get("kind", "heuristic")
            )
        elif what == "remove":
            result = services.game_seat_remove(
                game_id=game.pk, user=request.user, seat_no=-1 if seat_no is None else seat_no
            )
        else:
            result = fn[what](game_id=game.pk, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc.code, exc.message, exc.details))
    else:
        if what == "leave" and result is None:
            messages.info(request, _("You left; the game was removed."))
            return HttpResponseRedirect(reverse("home"))
        messages.success(
            request,
            {
                "join": _("You joined the game."),
                "leave": _("You left the game."),
                "start": _("The game has started."),
                "bot": _("A bot took a seat."),
                "remove": _("The seat was removed."),
                "invite": _("The invitation was sent."),
            }[what],
        )
        if what in ("join", "bot") and fresh(game).status == Game.Status.RUNNING:
            # The seat just taken was the last: the game started by itself (auto_start).
            messages.info(request, _("The last seat is filled: the game has started."))
    return HttpResponseRedirect(reverse("game", args=[game.pk]))


@with_user_timezone
def game_invite_link(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    """A private game's invitation link: its lobby, with a Join button carrying the code. A
    code that is not the game's (a wrong one, or one replaced when a player was removed) is
    not found, like the game itself for whom it is hidden."""
    game = game_or_404(request, game_id, code=code)
    if not invite_code_matches(game, code):
        raise Http404(_("This invitation link is not valid."))
    if game.status != Game.Status.OPEN:
        return HttpResponseRedirect(reverse("game", args=[game.pk]))
    return render_lobby(request, game, invite_code=code)


def render_lobby(
    request: HttpRequest,
    game: Game,
    *,
    error: RefusedError | None = None,
    status: int = 200,
    invite_code: str = "",
) -> HttpResponse:
    """An open game's page (``games/game.html`` with ``lobby``: ``games/_lobby.html``)."""
    reader = lang()
    user = request.user
    me = selectors.seat_of(game, user)
    gmap = board_svg.load_map(game.map)
    seats = selectors.game_seats(game)
    options = game.options or {}
    is_creator = user.is_authenticated and game.creator_id == user.pk
    page: LobbyPage = {
        **page_base(
            game, me=me, names=seat_names(game), lang=reader, error=error, history_seq=None
        ),
        "seats": [
            {
                "name": selectors.seat_name(s),
                "username": s.user.get_username(),
                "seat": s.seat,
                "colour": s.colour,
                "colour_label": present.colour_label(s.colour),
                "is_creator": s.user_id == game.creator_id,
                "is_bot": bool(getattr(getattr(s.user, "profile", None), "bot_kind", "")),
            }
            for s in seats
        ],
        "is_creator": is_creator,
        "bot_levels": bot_level_choices(),
        "can_join": user.is_authenticated and me is None and len(seats) < game.max_players,
        "is_private": bool(options.get("private")),
        "min_on_time": int(options.get("min_on_time") or 0),
        "invite_code": invite_code,
        "invite_url": absolute(invite_path(game)) if is_creator and game.invite_code else "",
        "board": board_svg.render_board(map_slug=game.map, areas=game.areas, lang=reader),
        "areas_label": join_names(
            name_in(gmap.areas[a], reader) for a in (game.areas or []) if a in gmap.areas
        ),
    }
    return render(request, "games/game.html", page, status=status)
