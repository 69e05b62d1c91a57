"""A player's public page: rating, reliability, games (``games.players``). The facts, and who
may see which game, are ``games.players``'s; this view only puts them in the reader's words
(map names in their language, places as "2nd of 4 players", dates in their time zone)."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.replica import reads_from_replica
from games import players, ratings, selectors
from games.selectors.names import bot_name
from games.web import board_svg
from games.web.common import with_user_timezone
from powergrid.levels import LEVELS
from powergrid.maps import name_in

#: "1st of 4 players": a whole sentence per place, so that each language words it its own way
#: (Japanese puts the number of players first: 4人中1位). A game has at most six players.
_PLACES = {
    1: gettext_lazy("1st of %(n)s players"),
    2: gettext_lazy("2nd of %(n)s players"),
    3: gettext_lazy("3rd of %(n)s players"),
    4: gettext_lazy("4th of %(n)s players"),
    5: gettext_lazy("5th of %(n)s players"),
    6: gettext_lazy("6th of %(n)s players"),
}


def place_label(place: int | None, players_n: int) -> str:
    """The player's place among ``players_n`` in the reader's language ("" when unknown)."""
    if place is None or place not in _PLACES:
        return ""
    return str(_PLACES[place]) % {"n": players_n}


def _map_name(slug: str, lang: str) -> str:
    try:
        return name_in(board_svg.load_map(slug), lang)
    except KeyError:  # a map no longer shipped: its slug is still a name
        return slug


class GameLine(TypedDict):
    """One of the player's games as ``templates/games/player.html`` lists it."""

    id: int
    map_name: str
    status: str
    players: int
    max_players: int
    place: str
    finished_at: datetime | None


def _shape(row: players.GameRow, lang: str) -> GameLine:
    return {
        "id": row.game_id,
        "map_name": _map_name(row.map, lang),
        "status": row.status,
        "players": row.players,
        "max_players": row.max_players,
        "place": place_label(row.place, row.players),
        "finished_at": row.finished_at,
    }


def _level_row(kind: str) -> dict[str, object]:
    """The row of ``level_table`` for ``kind``, its label in the reader's language."""
    row = next(r for r in ratings.level_table() if r["level"] == kind)
    return {**row, "name": bot_name(kind)}


@reads_from_replica
def bot_levels_page(request: HttpRequest) -> HttpResponse:
    """The bot levels and their ratings (``games.ratings.level_table``): each level is rated
    as a player of its own, from the finished games its bots played from the start."""
    rows = [{**r, "name": bot_name(r["level"])} for r in ratings.level_table()]
    return render(request, "games/bot_levels.html", {"levels": rows})


@with_user_timezone
@reads_from_replica  # a public record: a game finished a second ago may show a second later
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    user = get_user_model().objects.filter(username=username).select_related("profile").first()
    if user is None:
        raise Http404(_("No such player."))
    profile = getattr(user, "profile", None)
    lang = (translation.get_language() or "en")[:2]
    finished = players.games_finished(user, request.user, page=request.GET.get("page"))
    kind = str(getattr(profile, "bot_kind", "") or "")
    level = ratings.identity_level(user)
    ctx = {
        "player": user,
        "name": selectors.player_name(user),
        # A server bot's name says it is a bot ("Expert bot 3"); a bot account's does not.
        "is_bot": bool(getattr(profile, "is_bot", False)) and not kind,
        "rating": players.rating_of(user),
        # A level is a player of its own (its rating, the games that rated it); a seat's bot
        # points to its level's rating. Neither has a record of turns of its own to show.
        "level": level,
        "level_of_seat": _level_row(kind) if kind in LEVELS and not level else None,
        "server_bot": bool(kind),
        "reliability": None if kind else players.reliability(user),
        "current": [_shape(r, lang) for r in players.games_current(user, request.user)],
        "finished": [_shape(r, lang) for r in finished.rows],
        "finished_page": finished,
    }
    return render(request, "games/player.html", ctx)
