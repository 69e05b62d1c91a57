"""Every seat asked for its round sheet at once, and the sheet's deadline.

When a round begins in a game played by round sheets (``sheets_on``), every seat a person plays
(not a bot's, not one the bot has taken over) is asked for its sheet at the same moment: it gets
a deadline, by the same clock as a turn's (``games.turns.seat_clock``: the game's turn hours,
weekends paused if the game says so, the player's vacation), and ONE email. That email is a turn
email (``Notification.Kind.TURN``) under the turn email's key, so the seat the engine awaits first
gets one email, its turn and its sheet together; round 1's sheet is in the game-started email.

While its sheet waits, a seat keeps that deadline, awaited or not, and is told nothing more in
the round: when its turn comes the sheet's email has asked it already. It stops waiting when it
answers (the deadline goes, unless the engine awaits it: its sheet could not decide, and it is
asked again, as a turn), when it moves by hand instead (it plays the round move by move: each
turn has its own deadline and email, as in a game without sheets), or when the deadline passes:
the sweep plays the suggestion (``games.sheets.timeouts``).

On a move's path this needs no query: the seat row says whether its sheet waits
(``Seat.sheet_waits``, set when it is asked, cleared by ``games.turns`` when the sheet is
answered, a move is made by hand, or the deadline passes); a change that moved the seat by
nothing but (standing) plans leaves it as it was. Only a take-back into an earlier round reads
which seats had answered that round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.models import Game, Move, Seat, SheetAnswer

if TYPE_CHECKING:
    from powergrid.state import State


def sheets_on(game: Game) -> bool:
    """Whether the game is played by round sheets (games made before them: move by move)."""
    return bool((game.options or {}).get("sheets", False))


@dataclass(frozen=True)
class Answered:
    """Seats whose round sheet a change answered: ``seats`` (by their players, or by the
    deadline), ``timed_out`` (seat -> round: the suggestion played at the sheet's deadline, one
    timeout for the seat)."""

    seats: frozenset[int] = frozenset()
    timed_out: Mapping[int, int] = field(default_factory=dict)

    @property
    def by_player(self) -> frozenset[int]:
        """The seats whose players answered (a player's answer counts as their move)."""
        return self.seats - frozenset(self.timed_out)


@dataclass
class SheetRound:
    """The round sheets' part of one change of a sheets game (see the module)."""

    round: int
    #: Seats asked for their sheet now: a round began in this change.
    asked: set[int]
    #: Per seat, the sources of its moves in the change.
    sources: dict[int, set[str]]
    old_to_act: set[int]
    answered: Answered

    def waits(self, seat: Seat) -> bool:
        """Whether ``seat`` still waits for its round sheet after this change: it keeps its
        deadline (the sheet's) and, if the engine awaits it now, is told nothing new (the
        sheet's email asked it). A seat asked now waits; otherwise only one that waited before
        (``Seat.sheet_waits``: a seat playing the round move by move holds a turn's deadline,
        which a plan's move must not turn into a sheet's)."""
        if seat.seat in self.asked:
            return not seat.bot_controlled
        if not seat.sheet_waits or seat.deadline is None:
            return False
        if seat.bot_controlled or seat.seat in self.answered.seats:
            return False
        sources = self.sources.get(seat.seat, set())
        if sources - {Move.Source.PLAN}:
            # By hand (from now on move by move), by its sheet, the deadline or the bot.
            return False
        # Moved by a standing plan, or not at all: waiting as before, unless it was awaited and
        # left without a move (a take-back).
        return bool(sources) or seat.seat not in self.old_to_act


def sheet_round(
    *,
    game: Game,
    old_state: State | None,
    new_state: State,
    moves: Iterable[Move],
    seats: list[Seat],
    old_to_act: set[int],
    answered: Answered | None = None,
) -> SheetRound | None:
    """The round sheets' part of a change, or None (not a sheets game, or the game is over)."""
    if not sheets_on(game) or game.status != Game.Status.RUNNING:
        return None
    done = answered or Answered()
    sources: dict[int, set[str]] = {}
    for m in moves:
        sources.setdefault(m.seat, set()).add(str(m.source))
    asked: set[int] = set()
    if old_state is None or old_state.round != new_state.round:
        # (A sheet answered in this change was the round before's.)
        asked = {s.seat for s in seats if not s.bot_controlled}
        if old_state is not None and new_state.round < old_state.round:
            # A take-back into an earlier round: its answers stand (their plans are back).
            asked -= set(
                SheetAnswer.objects.filter(game=game, round=new_state.round).values_list(
                    "seat", flat=True
                )
            )
    return SheetRound(
        round=new_state.round,
        asked=asked,
        sources=sources,
        old_to_act=old_to_act,
        answered=done,
    )
