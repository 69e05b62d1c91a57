"""The note card: the reader's private note on the game (``games.notes``), for the seated player
only; the form posts to ``games.web.notes``."""

from __future__ import annotations

from typing import TypedDict

from .viewing import Viewing


class NoteCard(TypedDict):
    """``templates/games/cards/note.html``."""

    note: str | None  # None: no note card (not a player of the game)


def note_card(view: Viewing) -> NoteCard:
    if view.me is None:
        return {"note": None}
    return {"note": view.own.note}  # read with the page's reader rows (games.web.reader)
