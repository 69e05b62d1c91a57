"""What every page of a game has around its cards, in the lobby and on the board: the game, the
reader's seat, the title's map name, a refused move's error, and what lets the open page follow
the game (``static/js/live.js``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games import selectors
from games.models import Game, Seat
from powergrid.maps import name_in

from . import board_svg
from .context import Live, PageBase, RefusedError


def page_base(
    game: Game,
    *,
    me: Seat | None,
    names: dict[int, str],
    lang: str,
    error: RefusedError | None,
    history_seq: int | None,
) -> PageBase:
    return {
        "game": game,
        "me": me,
        "error": error,
        "lang": lang,
        "names": names,
        "map_name": name_in(board_svg.load_map(game.map), lang),
        **live(game, me, history_seq),
        "board": "",
        "lobby": game.status == Game.Status.OPEN,
    }


def live(game: Game, me: Seat | None, history_seq: int | None) -> Live:
    """What lets the open page follow the game (static/js/live.js): the game's event stream,
    and the tab's title while it is the reader's turn. A history page and a finished game do
    not change, so they do not listen. ``bots_thinking``: every seat awaited is played by the
    server's bot, whose deadline means nothing to a reader (it moves within seconds)."""
    running = game.status == Game.Status.RUNNING
    to_act = set(game.to_act or [])
    awaited = [s for s in selectors.game_seats(game) if s.seat in to_act]
    return {
        "live_url": (
            reverse("api_stream") + f"?game={game.pk}"
            if history_seq is None and game.status != Game.Status.FINISHED
            else ""
        ),
        "your_turn": running
        and history_seq is None
        and me is not None
        and me.offered != Seat.Offered.LEFT  # resigned: the bot's turn, never theirs
        and me.seat in to_act,
        "your_turn_mark": "\u25b6 " + _("Your turn") + " \u00b7 ",
        "bots_thinking": running and bool(awaited) and all(s.bot_controlled for s in awaited),
    }
