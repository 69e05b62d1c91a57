"""The seat card: leaving the game and substitutes (``games.services.seats``). For a player:
"Leave this game" (with a confirmation box: no JavaScript needed) and "Seek a substitute" (or
withdraw it); for a player who left: that the bot plays their seat; for anyone else signed in: the
seats offered to substitutes, each with "Take this seat". The forms post to ``games.web.seats``."""

from __future__ import annotations

from typing import TypedDict

from games import selectors
from games.models import Game, Seat
from games.selectors.detail import game_options

from .viewing import Viewing


class OfferedSeat(TypedDict):
    seat: int
    name: str
    why: str  # seeking, left, timed_out


class SeatCard(TypedDict):
    """``templates/games/cards/seat.html``."""

    seat_mine: str | None  # None: no seat of mine; else my seat's ``offered`` ("" when not)
    seats_offered: list[OfferedSeat]
    substitutes: bool  # the game takes substitutes (``options.substitutes``; tables take none)


def seat_card(view: Viewing) -> SeatCard:
    game, me = view.game, view.me
    substitutes = game_options(game)["substitutes"]
    card: SeatCard = {"seat_mine": None, "seats_offered": [], "substitutes": substitutes}
    if game.status != Game.Status.RUNNING or view.history_seq is not None:
        return card
    if me is not None:
        card["seat_mine"] = me.offered
        return card
    if not substitutes or not getattr(view.user, "is_authenticated", False):
        return card
    card["seats_offered"] = [
        {"seat": s.seat, "name": view.names.get(s.seat, "?"), "why": s.offered}
        for s in selectors.game_seats(game)
        if s.offered != Seat.Offered.NO
    ]
    return card
