"""The game page's cards, one module each: a presenter (a small typed function of a
``Viewing``, ``cards.viewing``) returning a TypedDict, which its template include
(``templates/games/cards/<card>.html``) reads, with a test (``tests/games/web/cards/``).

A new card is those three: the presenter here, the include, the test; ``games.web.game`` adds
the presenter's answer to the page (its TypedDict a base of ``BoardPage``, the presenter called
by ``render_game``) and ``templates/games/game.html`` includes the card. ``CARDS`` names them,
in the order the page includes them; ``tests/games/web/cards/test_cards_complete.py`` checks
each has its include, its test and its place in ``games.web.game``, and that order."""

from __future__ import annotations

#: Every card of a started game's page (a module here, an include, a test), in the order
#: ``templates/games/game.html`` includes them.
CARDS = (
    "head",
    "restored",
    "takeback",
    "move",
    "sheet",
    "players",
    "seat",
    "note",
    "board",
    "words",
    "market",
    "resources",
    "chat",
    "log",
    "practice",
    "shuffle",
    "reference",
)
