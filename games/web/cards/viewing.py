"""What every card of the game page is made from: the game, the reader, the state they may see
(``selectors.game_state_for``, the API's declared answer), the reader's own rows (their note,
their sheet's answer, their other games waiting: ``games.web.reader``, one statement) and the
page's own inputs (a refused form sent again, the cities ticked for a preview), read once per
page."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, QueryDict

from games import selectors
from games.models import Game, Seat
from games.shapes import Player, State
from games.web.context import Person
from games.web.present import FormMeaning, LegalByType, form_meaning, legal_by_type
from games.web.reader import ReaderRows, reader_rows


@dataclass(frozen=True)
class Viewing:
    """A started game as one reader sees it, at one move (``history_seq``) or now."""

    request: HttpRequest
    game: Game
    user: selectors.Reader
    me: Seat | None
    state: State
    names: dict[int, str]
    usernames: dict[int, str]
    lang: str
    history_seq: int | None
    legal: LegalByType
    you: Player | None
    #: The refused form as it was sent, while it still means what it meant ({} otherwise).
    kept: dict[str, list[str]]
    #: The cities ticked for the build form's preview, of those buildable now.
    selected: list[str]
    #: The cost calculator's inputs when it was asked (``?calc=1``), else None.
    calc_query: QueryDict | None
    #: The reader's own rows, read once for the cards that show them (``games.web.reader``).
    own: ReaderRows

    @property
    def viewer(self) -> int | None:
        return self.state["seat"]

    @property
    def money(self) -> int | None:
        return self.you["money"] if self.you else None

    def person(self, seat: int) -> Person:
        """A seat's name as the page writes it: a link to its player's page (``|player``)."""
        return {"name": self.names.get(seat, "?"), "username": self.usernames.get(seat)}

    def kept_one(self, name: str) -> str:
        """The value a refused form sent for ``name`` ("" when none)."""
        return (self.kept.get(name) or [""])[0]


def viewing(
    request: HttpRequest,
    game: Game,
    *,
    me: Seat | None,
    names: dict[int, str],
    lang: str,
    history_seq: int | None,
    build_selected: list[str] | None,
    calc_query: QueryDict | None,
    posted: dict[str, list[str]] | None,
    posted_meaning: FormMeaning | None,
) -> Viewing:
    """The reader's view of a started game, with the page's inputs checked against it."""
    user = request.user
    if history_seq is not None:
        state = selectors.game_history_state_for(game, user, history_seq)
    else:
        state = selectors.game_state_for(game, user)
    legal = legal_by_type(state["legal"])
    # A refused form comes back as it was sent, only to the form of the same move type and while
    # it means what it meant when it was filled in (the same phase, seat, plant under auction);
    # else the form starts from the new state's defaults.
    kept = (
        posted
        if posted
        and (posted.get("action") or [""])[0] in legal
        and posted_meaning == form_meaning(state)
        else {}
    )
    if "cities" in kept:
        build_selected = kept["cities"]
    build = legal.get("build")
    now = history_seq is None
    sheet_shown = (
        now
        and me is not None
        and me.offered != Seat.Offered.LEFT  # resigned: no sheet, no move of theirs
        and game.status == Game.Status.RUNNING
    )
    own = reader_rows(
        game,
        user,
        seat=me.seat if me is not None else None,
        round_=state["round"] if sheet_shown else None,
        forecast=now,
    )
    return Viewing(
        request=request,
        game=game,
        user=user,
        me=me,
        state=state,
        names=names,
        usernames={p["seat"]: p["username"] for p in state["players"]},
        lang=lang,
        history_seq=history_seq,
        legal=legal,
        you=next((p for p in state["players"] if p["seat"] == state["seat"]), None),
        kept=kept,
        selected=[c for c in (build_selected or []) if build and c in build["cities"]],
        calc_query=calc_query,
        own=own,
    )
