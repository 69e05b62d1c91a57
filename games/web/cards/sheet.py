"""The round sheet card: the reader's sheet for the round as a form (``games.web.sheet`` makes
its context and takes its POST). Only for a seated player of a running game played by round
sheets (``sheets_on``; a game played move by move has no sheet card), at the move now."""

from __future__ import annotations

from typing import TypedDict

from games.models import Seat
from games.sheets.asking import sheets_on
from games.web.sheet import SheetForm, card

from .viewing import Viewing


class SheetCard(TypedDict):
    """``templates/games/cards/sheet.html``."""

    sheet_form: SheetForm | None


def sheet_card(view: Viewing) -> SheetCard:
    if view.history_seq is not None or view.me is None or not sheets_on(view.game):
        return {"sheet_form": None}
    if view.me.offered == Seat.Offered.LEFT:  # resigned: the bot plays the seat
        return {"sheet_form": None}
    return {"sheet_form": card(view.request, view.game, answered=view.own.sheet_answer)}
