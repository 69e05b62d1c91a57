"""A round sheet not answered by its deadline: its suggestion is played, as a turn's default move
is when a turn's deadline passes (``games.deadlines.sweep``, which calls ``sheets_time_out`` for
a sheets game's seats past their deadline before anything else).

Each such seat's sheet is answered with the suggestion worked out from its own view (the
``SheetAnswer`` with source ``timeout``), and the sheets play at once through the move
service's plans runner (``games.services.moves.plans_follow_locked``): the moves they make are
logged with source ``sheet``, as any sheet's. The turn hook counts one timeout for each such
seat and tells its player (the game's ``timeouts_before_bot`` rule applies, as to default
moves). Where a suggestion cannot decide the move the engine awaits, the seat's deadline has
passed all the same, and the sweep makes the turn's default move (source ``timeout``).
"""

from __future__ import annotations

from games import engine
from games.models import Game, Seat, SheetAnswer
from games.services.moves import plans_follow_locked
from games.sheets.asking import Answered, sheets_on
from games.sheets.document import from_document
from games.sheets.services import sheet_document, sheet_store


def sheets_time_out(game: Game, due: list[Seat]) -> int | None:
    """On a running game the caller's transaction has locked: play the suggestions of the
    round sheets of ``due`` (seats past their deadline) not answered yet. The moves they made,
    or None when there was no such sheet; ``game`` (and its ``seats_read``) is then as the
    moves left it."""
    if not sheets_on(game) or game.status != Game.Status.RUNNING:
        return None
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    answered = set(
        SheetAnswer.objects.filter(game=game, round=state.round).values_list("seat", flat=True)
    )
    late = sorted({s.seat for s in due if not s.bot_controlled and s.seat not in answered})
    if not late:
        return None
    for seat in late:
        suggestion = sheet_document(game, seat, state, deadline=None)
        sheet_store(game, seat, from_document(suggestion, state, seat), source="timeout")
    made, _seq = plans_follow_locked(
        game,
        answered=Answered(seats=frozenset(late), timed_out=dict.fromkeys(late, state.round)),
    )
    return made
