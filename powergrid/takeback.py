"""Take-backs: a move undone, kept in the move log as an entry of its own.

A move log is append-only. A take-back does not remove moves from it: it is one more entry,
``{"type": "takeback", "cancels": [seq, ...], "accepted_by": [seat, ...]}``, that names the moves
it cancels. Those are always the latest moves that stand, oldest first (a tail of the log once
earlier take-backs are applied); replay skips them, so the state after a take-back is exactly
the state before the first move it cancels. The deck keeps its order: a plant that a cancelled
move drew from the deck is on top of it again, and the same card comes up again.

When a take-back is fair without asking anyone is the server's rule (nobody else has moved since,
and the move revealed nothing hidden). What "revealed something hidden" means is the engine's,
:func:`revealed`, from the two states around one move. The hidden parts of a state are: the
deck's order and the plants removed face down at setup (and the seed behind them), each player's
money (hidden from the others until the end), and the amounts of sealed bids until the last one
is in. A move reveals something when what some seat may see after it depends on one of those
parts; that happens exactly when

* a card leaves the deck (``plant_drawn``): a plant drawn into the market, after a sale, a
  removal or the plant market's turnover, the Step 3 card with the shuffle it brings, or, with the
  mixed deck, the first of two twins leaving the game face up;
* a sealed auction is resolved (``sealed_bids_opened``): the last sealed bid opens them all;
* the game ends (``game_over``): the final scores show every player's money.

Nothing else does: every other change a move makes (a bid, a pass, a purchase, a build, powering,
a discard) is made in the open, and another player's money changes only by public amounts.
``tests/engine/test_takeback.py`` checks this definition against the views: for a move that
:func:`revealed` passes, changing any hidden part of the state before it changes no seat's view
after it.

>>> import powergrid
>>> s = powergrid.new_game(map="germany", players=3, seed=1)
>>> first = s.order[0]
>>> t = powergrid.apply(s, first, {"type": "choose_plant", "plant": 3, "bid": 3})
>>> revealed(s, t) is None
True
>>> r = Replay(s)
>>> _ = r.play(1, first, {"type": "choose_plant", "plant": 3, "bid": 3})
>>> r.play(2, first, entry([1])) == s
True
>>> r.standing()
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from powergrid.engine import apply
from powergrid.errors import IllegalAction
from powergrid.state import FINISHED, State
from powergrid.text import Sentence, gettext_noop

#: The type of a take-back entry in a move log (never an action type of ``ACTIONS``).
TAKEBACK = "takeback"

#: What a move revealed (:func:`revealed`), each with a sentence for the player.
PLANT_DRAWN = "plant_drawn"
SEALED_BIDS_OPENED = "sealed_bids_opened"
GAME_OVER = "game_over"
REVEALS: dict[str, str] = {
    PLANT_DRAWN: gettext_noop("a plant was drawn from the deck"),
    SEALED_BIDS_OPENED: gettext_noop("the sealed bids were opened"),
    GAME_OVER: gettext_noop("the game ended"),
}

#: The fields of a take-back entry: the moves cancelled (their seqs, oldest first) and the seats
#: that agreed (empty when the player took their own move back alone).
FIELDS = frozenset({"type", "cancels", "accepted_by"})

_ = gettext_noop
#: The move log's line of a take-back (``powergrid.describe``).
SAID_ALONE = Sentence(
    _("%(name)s took back their move."), _("%(name)s took back %(n)d moves."), "n"
)
SAID_AGREED = Sentence(
    _("%(name)s took back their move, with everyone's agreement."),
    _("%(name)s took back %(n)d moves, with everyone's agreement."),
    "n",
)


def revealed(before: State, after: State) -> str | None:
    """What the move from ``before`` to ``after`` revealed that was hidden (a code of
    :data:`REVEALS`), or None when it revealed nothing (see the module's docstring).

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=2, seed=3)
    >>> a = s.order[0]
    >>> t = powergrid.apply(s, a, {"type": "choose_plant", "plant": 3, "bid": 3})
    >>> u = powergrid.apply(t, s.order[1], {"type": "pass_bid"})   # a sale: a plant is drawn
    >>> revealed(t, u)
    'plant_drawn'
    """
    if after.phase == FINISHED and before.phase != FINISHED:
        return GAME_OVER
    if after.sealed_last != before.sealed_last:
        return SEALED_BIDS_OPENED
    if after.deck != before.deck or after.setup_removed != before.setup_removed:
        return PLANT_DRAWN
    return None


def entry(cancels: Sequence[int], accepted_by: Sequence[int] = ()) -> dict[str, Any]:
    """The log entry of a take-back of the moves ``cancels`` (seqs, oldest first), agreed by the
    seats ``accepted_by`` (none: the player took their own move back alone)."""
    return {"type": TAKEBACK, "cancels": list(cancels), "accepted_by": sorted(accepted_by)}


def is_takeback(action: object) -> bool:
    """Whether a log entry's action is a take-back."""
    return isinstance(action, Mapping) and action.get("type") == TAKEBACK


def cancels_of(action: Mapping[str, Any]) -> tuple[int, ...]:
    """The seqs a take-back entry cancels, checked for shape (``invalid_takeback`` otherwise)."""
    if not FIELDS.issuperset(action):
        raise IllegalAction("invalid_takeback", "A take-back has only cancels and accepted_by.")
    raw = action.get("cancels")
    if (
        type(raw) is not list
        or not raw
        or not all(type(x) is int and x > 0 for x in raw)
        or any(b <= a for a, b in pairwise(raw))
    ):
        raise IllegalAction(
            "invalid_takeback", "A take-back cancels a list of move numbers, oldest first."
        )
    seats = action.get("accepted_by", [])
    if type(seats) is not list or not all(type(x) is int and x >= 0 for x in seats):
        raise IllegalAction("invalid_takeback", "accepted_by lists seats.")
    return tuple(raw)


def _cut(stack_seqs: Sequence[int], cancels: tuple[int, ...]) -> int:
    """How many moves to drop from the top of the standing moves (``stack_seqs``) for a take-back
    of ``cancels``: they must be exactly its latest moves."""
    n = len(cancels)
    if n > len(stack_seqs) or tuple(stack_seqs[-n:]) != cancels:
        raise IllegalAction(
            "invalid_takeback",
            "A take-back cancels the latest moves that stand, and only those.",
            {"cancels": list(cancels), "latest": list(stack_seqs[-n:])},
        )
    return n


LogEntry = tuple[int, int, Mapping[str, Any]]


def standing(log: Iterable[LogEntry]) -> list[LogEntry]:
    """The moves of ``log`` ((seq, seat, action), in order, take-backs among them) that stand:
    every move no take-back cancelled, in order. Raises ``IllegalAction`` for a take-back that
    does not cancel the latest standing moves."""
    stack: list[LogEntry] = []
    for item in log:
        if is_takeback(item[2]):
            n = _cut([m[0] for m in stack], cancels_of(item[2]))
            del stack[-n:]
        else:
            stack.append(item)
    return stack


def replay(initial: State, log: Iterable[LogEntry]) -> State:
    """The state after ``log`` from ``initial``: the standing moves applied in order (cancelled
    moves are not applied at all)."""
    state = initial
    for _seq, seat, action in standing(log):
        state = apply(state, seat, dict(action))
    return state


class Replay:
    """A move log replayed as it happened, one entry at a time: each move applied, each
    take-back going back to the state before the first move it cancels. For a history that
    shows every entry with the states around it (the move log page); :func:`replay` is the
    cheaper way to the last state."""

    __slots__ = ("_stack", "state")

    def __init__(self, initial: State) -> None:
        self.state = initial
        #: The standing moves: (seq, seat, state before it).
        self._stack: list[tuple[int, int, State]] = []

    def play(self, seq: int, seat: int, action: Mapping[str, Any]) -> State:
        """Apply one entry of the log (a move or a take-back); the state after it."""
        if is_takeback(action):
            n = _cut([m[0] for m in self._stack], cancels_of(action))
            self.state = self._stack[-n][2]
            del self._stack[-n:]
        else:
            before = self.state
            self.state = apply(before, seat, dict(action))
            self._stack.append((seq, seat, before))
        return self.state

    def standing(self) -> list[int]:
        """The seqs of the moves that stand so far, in order."""
        return [m[0] for m in self._stack]

    def last(self) -> tuple[int, int, State] | None:
        """The latest standing move: (seq, seat, the state before it), or None."""
        return self._stack[-1] if self._stack else None

    def tail(self, seq: int) -> list[tuple[int, int, State]]:
        """The standing moves from ``seq`` on ((seq, seat, state before), oldest first); empty
        when ``seq`` does not stand."""
        for i, m in enumerate(self._stack):
            if m[0] == seq:
                return list(self._stack[i:])
        return []


def said(params: Mapping[str, object]) -> Sentence:
    """The move log's sentence of a take-back entry (``n`` moves, ``agreed`` or not)."""
    return SAID_AGREED if params.get("agreed") else SAID_ALONE
