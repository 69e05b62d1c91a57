"""The game page's context, declared: what ``templates/games/game.html`` reads around its cards
(``PageBase``: in the lobby and on the board), the lobby's (``LobbyPage``), and the small types
the cards share (``Person``, the build quote). Each card's own part is declared with its
presenter in ``games.web.cards``; the started game's whole page is ``games.web.game.BoardPage``.

The game-state part IS the API's declared answer: ``state`` is ``games.shapes.State`` as
``selectors.game_state_for`` returns it (the body of ``GET /api/v1/games/{id}/state/``), and the
templates read its keys (``state.phase``, ``state.round``, ``state.deadline``, ...) by the names
the schema publishes. What the page needs beyond it (cards drawn, names linked, forms filled in,
the chat, the log in sentences) is a page-only part, each piece typed here, in
``games.web.cards`` or in ``games.web.present``, and made from the declared state rather than
beside it: nothing on the page's path is ``Any`` (``tests/test_no_any_on_the_state_path.py``).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from games import shapes
from games.models import Game, Seat
from games.web.present import FormMeaning


class Person(TypedDict):
    """A name the page links to the player's page (``|player``): username None for nobody's."""

    name: str
    username: str | None


class RefusedError(TypedDict):
    """A refused move's error beside its form: the code and the sentence in the reader's
    language."""

    code: str
    text: str


class Refusal(TypedDict):
    """What a refused move's page shows: the error, the form as sent, what the form meant."""

    error: RefusedError
    posted: dict[str, list[str]]
    posted_meaning: FormMeaning | None


class Live(TypedDict):
    """What lets the open page follow the game (static/js/live.js)."""

    live_url: str
    your_turn: bool
    your_turn_mark: str
    bots_thinking: bool


class PageBase(Live):
    """What every game page has, in the lobby and on the board."""

    game: Game
    me: Seat | None
    error: RefusedError | None
    lang: str
    names: dict[int, str]
    map_name: str
    board: str
    lobby: bool


class LobbySeat(TypedDict):
    name: str
    username: str
    seat: int
    colour: str
    colour_label: str
    is_creator: bool
    is_bot: bool


class LobbyPage(PageBase):
    """An open game's page: the seats, the join and invitation forms."""

    seats: list[LobbySeat]
    is_creator: bool
    bot_levels: list[tuple[str, str]]
    can_join: bool
    is_private: bool
    min_on_time: int
    invite_code: str
    invite_url: str
    areas_label: str


class QuoteError(TypedDict):
    """The API's ``ErrorDetail`` (the same body to the same token), and for the page's own
    session the sentence in the reader's language."""

    code: str
    message: str
    details: shapes.JSONObject
    text: NotRequired[str]


class QuoteRefused(TypedDict):
    error: QuoteError


#: The build form's total: the API's ``BuildQuote``, or its refusal in the reader's language.
Quote = shapes.BuildQuote | QuoteRefused
