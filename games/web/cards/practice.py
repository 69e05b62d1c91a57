"""The practice card: a new game against the bots, from a finished game's past board (any seat)
or from the reader's running game now (their seat). The form posts to ``games.web.takeback``."""

from __future__ import annotations

from typing import TypedDict

from games import selectors
from games.models import Game
from games.web.forms import bot_level_choices

from .viewing import Viewing


class PracticeSeat(TypedDict):
    seat: int
    name: str


class PracticeForm(TypedDict):
    seq: int | None
    seats: list[PracticeSeat]
    mine: int
    levels: list[tuple[str, str]]


class PracticeCard(TypedDict):
    """``templates/games/cards/practice.html``."""

    practice_form: PracticeForm | None


def practice_card(view: Viewing) -> PracticeCard:
    game, me, history_seq = view.game, view.me, view.history_seq
    if game.status == Game.Status.FINISHED and history_seq is not None and history_seq < game.seq:
        return {
            "practice_form": {
                "seq": history_seq,
                "seats": [
                    {"seat": s.seat, "name": view.names.get(s.seat, "?")}
                    for s in selectors.game_seats(game)
                ],
                "mine": me.seat if me is not None else 0,
                "levels": bot_level_choices(),
            }
        }
    if game.status == Game.Status.RUNNING and history_seq is None and me is not None:
        return {
            "practice_form": {
                "seq": None,
                "seats": [],
                "mine": me.seat,
                "levels": bot_level_choices(),
            }
        }
    return {"practice_form": None}
