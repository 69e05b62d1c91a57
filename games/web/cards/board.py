"""The board's card: the map drawn on the server (``board_svg``: houses, the cities the build
form offers and those ticked) and the step 2 and game end thresholds."""

from __future__ import annotations

from typing import TypedDict

from games.web import board_svg
from games.web.present import thresholds

from .viewing import Viewing


class BoardCard(TypedDict):
    """``templates/games/cards/board.html`` (the drawing itself: ``games/_board.html``)."""

    board: str
    thresholds: dict[str, int | None]


def board_card(view: Viewing) -> BoardCard:
    state = view.state
    build = view.legal.get("build")
    return {
        "board": board_svg.render_board(
            map_slug=view.game.map,
            areas=state["areas"],
            lang=view.lang,
            occupancy=state["cities"],
            colours={p["seat"]: p["colour"] for p in state["players"]},
            buildable=build["cities"] if build else None,
            selected=set(view.selected),
        ),
        "thresholds": thresholds(state),
    }
