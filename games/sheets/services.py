"""Reading and answering a seat's round sheet. ``sheet_put`` owns its transaction and takes the
game's row lock first, as a move does; the moves the sheets make at once are made by the move
service's plans runner (``plans_follow_now``) before the answer, as a plan's are.

A sheet is *due* while the game waits for its seat: the seat is awaited now (its sheet, if any,
could not decide: the sheet for what remains), or, in a game played by round sheets, the seat
has not answered this round's sheet yet (every seat is asked at once when a round begins,
``games.sheets.asking``). A due sheet has the seat's deadline: when it passes, the sweep plays
the suggestion (``games.sheets.timeouts``).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from django.db import transaction

from games import engine
from games.fastpath import rows
from games.models import Game, Plan, Seat, SheetAnswer
from games.plans.stored import plan_key, plan_to_json
from games.services.errors import GameNotFound, NotAPlayer, ServiceError
from games.services.moves import plans_follow_now
from games.sheets import shapes as sheet_shapes
from games.sheets.asking import Answered, sheets_on
from games.sheets.document import from_document, retold, to_document
from powergrid import sheet as sh
from powergrid.state import State

__all__ = [
    "is_due",
    "seat_of_user",
    "sheet_after",
    "sheet_document",
    "sheet_get",
    "sheet_put",
    "sheet_store",
    "sheets_on",
]

#: The caller's seat: (seat number, its deadline).
_SeatRow = tuple[int, datetime | None]


def _seat_row(game: Game, user: object) -> _SeatRow:
    pk = getattr(user, "pk", None)
    if pk is None:
        raise NotAPlayer()
    row = game.seats.filter(user_id=pk).values_list("seat", "deadline").first()
    if row is None:
        raise NotAPlayer()
    return int(row[0]), row[1]


def _seat_of(game: Game, user: object) -> int:
    return _seat_row(game, user)[0]


def _running(game: Game) -> None:
    if game.status != Game.Status.RUNNING:
        raise ServiceError("Sheets are for a game under way.", code="game_not_running", status=409)


def _not_left(game: Game, seat: int) -> None:
    """A player who resigned has no sheet: the bot plays their seat, and an answer would give
    it back (as a move)."""
    if Seat.objects.filter(game=game, seat=seat, offered=Seat.Offered.LEFT).exists():
        raise ServiceError("You have left this game.", code="seat_left", status=409)


def _state(game: Game) -> State:
    return engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )


def is_due(game: Game, state: State, seat: int, answered: bool) -> bool:
    """The game waits for this seat's sheet (see the module's docstring)."""
    if seat in engine.to_act(state):
        return True
    return sheets_on(game) and not answered


class Unread(enum.Enum):
    """``sheet_document``'s ``answered`` when the caller has not read the answer (it reads it)."""

    UNREAD = "unread"


UNREAD = Unread.UNREAD

#: ``sheet_document``'s ``deadline`` when the caller has not read it: read it here.
_READ = object()


def answer_of(game: Game, seat: int, round_: int) -> sheet_shapes.Sheet | None:
    """The seat's stored answer to the round's sheet (None: not answered)."""
    row = SheetAnswer.objects.filter(game=game, seat=seat, round=round_).first()
    return row.data if row is not None else None


def sheet_document(
    game: Game,
    seat: int,
    state: State,
    answered: sheet_shapes.Sheet | Unread | None = UNREAD,
    *,
    deadline: datetime | object | None = _READ,
) -> sheet_shapes.Sheet:
    """The seat's current sheet: as answered this round, or (not answered, or asked again
    where it could not decide) filled in with the suggestion from the seat's own view.
    ``answered``: the seat's stored answer to this round's sheet when the caller read it with
    others (a batch of emails, the game page's one read for its reader), else read here.
    ``deadline``: the seat's (``Seat.deadline``), when the caller has it; shown while due."""
    if answered is UNREAD:
        answered = answer_of(game, seat, state.round)
    awaited = seat in engine.to_act(state)
    due = is_due(game, state, seat, answered is not None)
    if deadline is _READ:
        deadline = Seat.objects.filter(game=game, seat=seat).values_list("deadline").first()
        deadline = deadline[0] if deadline else None
    when = deadline if due and isinstance(deadline, datetime) else None
    if answered is not None and not awaited:
        stored = retold(answered)
        stored["due"], stored["answered"], stored["deadline"] = due, True, when
        return stored
    sheet = sh.suggest(engine.view(state, seat), seat)
    return to_document(
        sheet, game_id=game.pk, due=due, answered=answered is not None, deadline=when
    )


def sheet_after(*, game_id: int, seat: int) -> sheet_shapes.Sheet:
    """The seat's sheet as it stands now (after an answer and the moves it made)."""
    game = Game.objects.get(pk=game_id)
    return sheet_document(game, seat, _state(game))


def seat_of_user(game: Game, user: Any) -> int:
    """The caller's seat, or ``NotAPlayer`` (403)."""
    return _seat_of(game, user)


def sheet_get(*, game: Game, user: Any) -> sheet_shapes.Sheet:
    """The caller's sheet in ``game`` (for its owner only)."""
    seat, deadline = _seat_row(game, user)
    _running(game)
    _not_left(game, seat)
    return sheet_document(game, seat, _state(game), deadline=deadline)


def sheet_store(game: Game, seat: int, sheet: sh.Sheet, *, source: str) -> None:
    """Keep ``sheet`` as the seat's answer for its round: its lines replace the seat's plans
    (``game`` locked by the caller; the plans run after, ``plans_follow_now``)."""
    Plan.objects.filter(game=game, seat=seat).delete()
    Plan.objects.bulk_create(
        [
            Plan(
                game=game,
                seat=seat,
                kind=plan.kind,
                key=plan_key(plan),
                data={**plan_to_json(plan), "sheet_round": sheet.round},
                sheet=True,
            )
            for plan in sh.to_plans(sheet)
        ]
    )
    answered = to_document(sheet, game_id=game.pk, due=False, answered=True)
    SheetAnswer.objects.update_or_create(
        game=game,
        seat=seat,
        round=sheet.round,
        defaults={"data": answered, "source": source[:8]},
    )
    if not game.plans_active:
        game.plans_active = True
        rows.update(game, ["plans_active"])


def sheet_put(*, game_id: int, user: Any, body: Any, source: str = "api") -> tuple[int, int]:
    """Answer the caller's sheet with ``body`` (a document as ``sheet_get`` returns it): its
    lines replace the seat's plans, and whatever the sheets decide now is played before the
    answer. The answer counts as the player's move (their deadline goes unless the game awaits
    them still; the bot gives their seat back). Returns (moves made, the game's seq).
    Refusals (``InvalidSheet``, ``SheetStale``) change nothing."""
    with transaction.atomic():
        game = rows.game_for_update(game_id)
        if game is None:
            raise GameNotFound()
        seat = _seat_of(game, user)
        _running(game)
        _not_left(game, seat)
        state = _state(game)
        sheet = from_document(body, state, seat)
        sheet_store(game, seat, sheet, source=source)
        return plans_follow_now(game.pk, answered=Answered(seats=frozenset({seat})))
