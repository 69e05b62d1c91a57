"""The home page: the visitor's games, their invitations, the open games (filtered by map,
players and turn length, each joined player with their rating and punctuality) and the games
being played; for a player with emails off, what a recovery lost whole of their games
(``games.restore.told.home_notices``), until they dismiss it (``restored_dismiss``)."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.replica import replica_reads
from games import describe, engine, numbers, players, selectors
from games.models import Game
from games.restore import told
from games.selectors import lists
from games.services import lobby
from games.templatetags.names import join_names
from powergrid.maps import name_in

from . import board_svg
from .common import lang, with_user_timezone
from .context import Person


class HomeFilters(TypedDict):
    """The open games' filters as the form shows them again."""

    map: str
    players: int | None
    max_turn_hours: int | None
    free: bool


class HomePage(TypedDict):
    """What ``home.html`` reads."""

    mine: list[GameRow]
    finished: list[GameRow]
    open_games: list[GameRow]
    filters: HomeFilters
    maps: list[tuple[str, str]]
    running: list[GameRow]
    invitations: list[GameRow]
    #: Running games with a seat offered to substitutes (games.services.seats), not the
    #: reader's own.
    seeking: list[GameRow]
    #: Games a recovery lost whole, for a player not emailed (``told.home_notices``).
    restored: list[told.HomeNotice]


@with_user_timezone
def home(request: HttpRequest) -> HttpResponse:
    mine: list[GameRow] = []
    restored: list[told.HomeNotice] = []
    if request.user.is_authenticated:
        restored = told.home_notices(request.user)
        for g in lists.game_list(user=request.user, mine=True).exclude(
            status=Game.Status.FINISHED,
        )[:50]:
            mine.append(_game_row(g, request.user))
        finished = [
            _game_row(g, request.user)
            for g in lists.game_list(user=request.user, mine=True, status="finished")[:10]
        ]
    else:
        finished = []
    q = request.GET
    map_filter = q.get("map", "") if q.get("map", "") in engine.maps_available() else ""
    # games.numbers: anything but digits in bounds is a 400 (games.numbers.BadNumber).
    players_filter = numbers.from_query(q, "players", low=0, high=lobby.PLAYERS_MAX)
    turn_filter = numbers.from_query(q, "turn", low=0, high=numbers.INT32_MAX)
    filters: HomeFilters = {
        "map": map_filter,
        "players": players_filter,
        "max_turn_hours": turn_filter,
        "free": bool(q.get("free")),
    }
    # The public lists may lag the primary by a second (config/replica.py); the visitor's own
    # games above are read where their last join or leave was written.
    with replica_reads():
        open_games = [
            _game_row(g, request.user)
            for g in lists.open_games(
                map=map_filter,
                players=players_filter,
                max_turn_hours=turn_filter,
                free=bool(q.get("free")),
            )[:30]
        ]
        # The lobby shows each joined player's rating (one query for the page).
        joined = [p["user_id"] for row in open_games for p in row["who"] if not p["is_bot"]]
        rated = players.ratings_for(joined)
        on_time = players.on_time_percents(joined)
        for row in open_games:
            for p in row["who"]:
                p["rating"] = rated.get(p["user_id"])
                p["on_time"] = on_time.get(p["user_id"])
        running = [
            _game_row(g, request.user)
            for g in lists.game_list(user=request.user, status="running")[:10]
        ]
        seeking = [
            _game_row(g, request.user)
            for g in lists.game_list(user=request.user, seeking_substitute=True)[:20]
        ]
    page: HomePage = {
        "mine": mine,
        "finished": finished,
        "open_games": open_games,
        "filters": filters,
        "maps": [(s, name_in(board_svg.load_map(s), lang())) for s in engine.maps_available()],
        "running": running,
        "seeking": [row for row in seeking if not row["is_member"]],
        "invitations": [_game_row(g, request.user) for g in lists.invitations_for(request.user)],
        "restored": restored,
    }
    return render(request, "home.html", page)


@require_POST
def restored_dismiss(request: HttpRequest, notification_id: int) -> HttpResponse:
    """The home notice of a game lost whole, read: not shown again."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    told.dismiss(request.user, notification_id)
    return HttpResponseRedirect(reverse("home"))


class LobbyPerson(TypedDict):
    """A joined player in the lobby's list, with their rating and punctuality."""

    name: str
    username: str
    user_id: int
    rating: int | None
    on_time: int | None
    is_bot: bool


class GameRow(TypedDict):
    """A game in the home page's lists."""

    game: Game
    map_name: str
    areas: str
    players: list[str]
    people: list[Person]
    who: list[LobbyPerson]
    count: int
    waiting_for: list[str]
    waiting_people: list[Person]
    your_turn: bool
    your_deadline: datetime | None
    where: str
    is_member: bool
    can_join: bool


def _game_row(game: Game, user: selectors.Reader) -> GameRow:
    seats = selectors.game_seats(game)
    me = selectors.seat_of(game, user)
    to_act = set(game.to_act or [])
    gmap = board_svg.load_map(game.map)
    return {
        "game": game,
        "map_name": name_in(gmap, lang()),
        # The areas chosen at creation ("" until start when they are to be drawn at random).
        "areas": join_names(
            name_in(gmap.areas[a], lang()) for a in (game.areas or []) if a in gmap.areas
        ),
        "players": [selectors.seat_name(s) for s in seats],
        "people": [
            {"name": selectors.seat_name(s), "username": s.user.get_username()} for s in seats
        ],
        "who": [
            {
                "name": selectors.seat_name(s),
                "username": s.user.get_username(),
                "user_id": s.user_id,
                "rating": None,
                "on_time": None,
                "is_bot": bool(getattr(getattr(s.user, "profile", None), "is_bot", False)),
            }
            for s in seats
        ],
        "count": len(seats),
        "waiting_for": [selectors.seat_name(s) for s in seats if s.seat in to_act],
        "waiting_people": [
            {"name": selectors.seat_name(s), "username": s.user.get_username()}
            for s in seats
            if s.seat in to_act
        ],
        "your_turn": me is not None and me.seat in to_act and game.status == "running",
        "your_deadline": me.deadline if me is not None and me.seat in to_act else None,
        "where": _where(game),
        "is_member": me is not None,
        "can_join": me is None and game.status == "open" and len(seats) < game.max_players,
    }


def _where(game: Game) -> str:
    """ "Round 3 · Building" for a running game: the public part of its cached engine state."""
    if game.status != Game.Status.RUNNING or not game.state_json:
        return ""
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    return _("Round %(round)s · %(phase)s") % {
        "round": state.round,
        "phase": describe.phase_label(state.phase),
    }
