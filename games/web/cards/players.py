"""The players' card: each seat's panel in player order (cities, plants, money where the reader
may see it) and who of them our emails do not reach."""

from __future__ import annotations

from typing import TypedDict

from accounts import deliverability
from games import selectors
from games.models import Game, Seat
from games.web.context import Person
from games.web.present import PlayerPanel, player_panels

from .viewing import Viewing


class MailDown(TypedDict):
    """The players of a running game our emails do not reach, for the others."""

    seats: set[int]
    people: list[Person]
    hours: int


class PlayersCard(TypedDict):
    """``templates/games/cards/players.html``."""

    panels: list[PlayerPanel]
    mail_down: MailDown | None
    #: Seats the bot plays in a running game, by why: its player left, or missed deadlines
    #: (everyone sees it: a tournament's table, which takes no substitutes, too).
    bot_left: set[int]
    bot_timed_out: set[int]


def players_card(view: Viewing) -> PlayersCard:
    left: set[int] = set()
    timed_out: set[int] = set()
    if view.game.status == Game.Status.RUNNING and view.history_seq is None:
        for s in selectors.game_seats(view.game):
            if s.offered == Seat.Offered.LEFT:
                left.add(s.seat)
            elif s.bot_controlled and s.offered == Seat.Offered.TIMED_OUT:
                timed_out.add(s.seat)
    return {
        "panels": player_panels(view.state, view.viewer),
        "mail_down": mail_down(view.game, view.me),
        "bot_left": left,
        "bot_timed_out": timed_out,
    }


def mail_down(game: Game, me: Seat | None) -> MailDown | None:
    """The players of a running game our emails do not reach (``accounts.deliverability``),
    for the other players (a seat's own player sees the banner): their names, and how much later
    their deadlines are while they stay away. None when there are none, or for a spectator."""
    if me is None or game.status != Game.Status.RUNNING:
        return None
    seats = [
        s
        for s in selectors.game_seats(game)
        if s.pk != me.pk and deliverability.undeliverable(s.user)
    ]
    if not seats:
        return None
    return {
        "seats": {s.seat for s in seats},
        "people": [{"name": selectors.seat_name(s), "username": s.user.username} for s in seats],
        "hours": int(deliverability.absent_grace().total_seconds() // 3600),
    }
