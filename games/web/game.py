"""A game's page: the lobby while it is open (``games.web.lobby``), else the board page built
from its cards (``games.web.cards``, one presenter each), now or at a past move
(``games.web.history``). The page itself only gathers what the cards are made from and adds
their answers up; each card says what it shows."""

from __future__ import annotations

from typing import TypedDict

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone

from games import selectors
from games.models import Game
from games.notifications import pace
from games.shapes import State
from games.web.present import FormMeaning

from .cards.board import BoardCard, board_card
from .cards.chat import ChatCard, chat_card
from .cards.head import HeadCard, head_card
from .cards.log import LogCard, log_card
from .cards.market import MarketCard, market_card
from .cards.move import MoveCard, move_card
from .cards.note import NoteCard, note_card
from .cards.players import PlayersCard, players_card
from .cards.practice import PracticeCard, practice_card
from .cards.reference import ReferenceCard, reference_card
from .cards.resources import ResourcesCard, resources_card
from .cards.restored import RestoredCard, restored_card
from .cards.seat import SeatCard, seat_card
from .cards.sheet import SheetCard, sheet_card
from .cards.shuffle import ShuffleCard, shuffle_card
from .cards.takeback import TakebackCard, takeback_card
from .cards.viewing import viewing
from .cards.words import WordsCard, words_card
from .common import game_or_404, lang, seat_names, with_user_timezone
from .context import PageBase, RefusedError
from .frame import page_base
from .lobby import render_lobby
from .sheet import DONE_KEY as SHEET_DONE_KEY

#: The session key of a refused move, shown once by the game page it redirects to.
REFUSED_KEY = "games.refused_move"
#: The session key of a move's confirmation ("Your move was recorded."), shown once, focused.
MOVE_DONE_KEY = "games.move_done"
#: Each confirmation's session key and the id of its element (the redirect's fragment).
DONE_KEYS = ((MOVE_DONE_KEY, "move-done"), (SHEET_DONE_KEY, "sheet-done"))


class Done(TypedDict):
    """A confirmation shown once where the redirect's fragment lands: its element's ``id``
    (``move-done``, ``sheet-done``) and its sentence."""

    id: str
    text: str


class BoardPage(
    PageBase,
    HeadCard,
    RestoredCard,
    TakebackCard,
    SeatCard,
    NoteCard,
    MoveCard,
    SheetCard,
    PlayersCard,
    BoardCard,
    WordsCard,
    MarketCard,
    ResourcesCard,
    ChatCard,
    LogCard,
    PracticeCard,
    ShuffleCard,
    ReferenceCard,
):
    """A started game's page: the frame, each card's part, and ``state``, the API's declared
    answer, which the templates read by the schema's keys."""

    state: State
    history_seq: int | None
    seq: int
    #: The confirmation of the move or the round sheet just sent from this page's forms (None
    #: for none): shown once, in one place above every card whichever cards the game's new
    #: position draws, where the redirect's fragment lands, with the focus on it.
    done: Done | None


@with_user_timezone
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(request, game_id, seats=True)  # one statement: the page shows the seats
    build_selected = None
    if game.status != Game.Status.OPEN and "preview" in request.GET:
        build_selected = [c for c in request.GET.getlist("cities") if c]
    calc_query = request.GET if "calc" in request.GET else None
    if game.status == Game.Status.RUNNING:
        # The player is here: their turn emails wait while they are (games.notifications.pace).
        pace.page_seen(selectors.seat_of(game, request.user), timezone.now())
    done = _done_popped(request, game)
    refused = request.session.pop(REFUSED_KEY, None)
    if isinstance(refused, dict) and refused.get("game") == game.pk:
        # The session's JSON, written by ``games.web.moves`` from a ``Refusal``.
        return render_game(
            request,
            game,
            build_selected=build_selected,
            calc_query=calc_query,
            error=refused.get("error"),
            posted=refused.get("posted") or {},
            posted_meaning=refused.get("meaning"),
        )
    return render_game(
        request, game, build_selected=build_selected, calc_query=calc_query, done=done
    )


def _done_popped(request: HttpRequest, game: Game) -> Done | None:
    """The confirmation the redirect of a move or a sheet left in the session, taken (shown
    once); the last of them when both are there."""
    found: Done | None = None
    for key, element in DONE_KEYS:
        kept = request.session.pop(key, None)
        if isinstance(kept, dict) and kept.get("game") == game.pk:
            found = {"id": element, "text": str(kept.get("text") or "")}
    return found


def render_game(
    request: HttpRequest,
    game: Game,
    *,
    error: RefusedError | None = None,
    status: int = 200,
    build_selected: list[str] | None = None,
    calc_query: QueryDict | None = None,
    history_seq: int | None = None,
    posted: dict[str, list[str]] | None = None,
    posted_meaning: FormMeaning | None = None,
    done: Done | None = None,
) -> HttpResponse:
    """The game's page as the reader sees it (``status``: a refused move's 4xx; ``done``: the
    confirmation of the move or the sheet just sent)."""
    if game.status == Game.Status.OPEN:
        return render_lobby(request, game, error=error, status=status)
    reader = lang()
    me = selectors.seat_of(game, request.user)
    names = seat_names(game)
    view = viewing(
        request,
        game,
        me=me,
        names=names,
        lang=reader,
        history_seq=history_seq,
        build_selected=build_selected,
        calc_query=calc_query,
        posted=posted,
        posted_meaning=posted_meaning,
    )
    takeback = takeback_card(view)
    page: BoardPage = {
        **page_base(game, me=me, names=names, lang=reader, error=error, history_seq=history_seq),
        "state": view.state,
        "history_seq": history_seq,
        "seq": game.seq,
        "done": done,
        **head_card(view),
        **restored_card(view),
        **takeback,
        **seat_card(view),
        **note_card(view),
        **move_card(view),
        **sheet_card(view),
        **players_card(view),
        **board_card(view),
        **words_card(view),
        **market_card(view),
        **resources_card(view),
        **chat_card(view),
        # After the take-back card: the log writes the sentence of the move it would undo.
        **log_card(view, takeback["takeback"]),
        **practice_card(view),
        **shuffle_card(view),
        **reference_card(view),
    }
    if page["calc"].get("problem"):  # the calculator's inputs refused (games.numbers): a 400
        status = 400
    return render(request, "games/game.html", page, status=status)
