"""The board in words (``games.web.board_words``): the drawn map's content as text, next to the
picture, for a screen reader and a small screen. ``?from=<city>`` asks for one city's
connections (a plain GET form: no script needed)."""

from __future__ import annotations

from typing import TypedDict

from games.web.board_words import BoardWords, board_in_words

from .viewing import Viewing


class WordsCard(TypedDict):
    """``templates/games/cards/words.html``."""

    words: BoardWords


def words_card(view: Viewing) -> WordsCard:
    from_city = view.request.GET.get("from", "")
    return {"words": board_in_words(view.state, view.names, from_city=from_city)}
