"""``apply``: check a move against the state and return the next state (the input is unchanged)."""

from __future__ import annotations

from typing import Any

from powergrid.actions import ACTIONS
from powergrid.errors import IllegalAction, shown
from powergrid.fields import check_keys
from powergrid.state import BUREAUCRACY, FINISHED, PHASES, State
from powergrid.turns import awaits, to_act


def apply(state: State, seat: int, action: dict[str, Any]) -> State:
    """The state after ``seat`` plays ``action``; ``state`` itself is unchanged.

    Checks, in order: the action's type, the seat, the game not over, the fields, the phase,
    whose turn it is; then the action type's handler (:data:`powergrid.actions.ACTIONS`) checks
    the rules. Any bad move raises :class:`IllegalAction` with a code and a sentence.

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=3, seed=1)
    >>> first = s.order[0]
    >>> t = apply(s, first, {"type": "choose_plant", "plant": 3, "bid": 3})
    >>> t.auction.plant, t.auction.bid
    (3, 3)
    >>> try:
    ...     apply(t, first, {"type": "build", "cities": []})
    ... except IllegalAction as e:
    ...     print(e.code, "-", e.message)
    wrong_phase - build is not possible now: the game is in phase 2 (auction).
    """
    if type(action) is not dict:
        raise IllegalAction("invalid_field", "An action must be a JSON object with a 'type'.")
    kind = action.get("type")
    spec = ACTIONS.get(kind) if type(kind) is str else None
    if spec is None:
        raise IllegalAction(
            "unknown_action",
            f"Unknown action type {shown(kind)}.",
            {"known": list(ACTIONS)},
        )
    if type(seat) is not int or not 0 <= seat < state.n:
        raise IllegalAction(
            "invalid_field", f"There is no seat {shown(seat)} in this game.", {"seats": state.n}
        )
    phase = state.phase
    if phase == FINISHED:
        raise IllegalAction("game_over", "The game is over.")
    if not spec.allowed.issuperset(action):
        check_keys(action, spec.allowed)  # raises, naming the unknown field
    if spec.phase != phase:
        label, number = PHASES[phase]
        raise IllegalAction(
            "wrong_phase",
            f"{kind} is not possible now: the game is in phase {number} ({label.lower()}).",
            {"phase": phase},
        )
    if not awaits(state, seat):
        if phase == BUREAUCRACY:
            raise IllegalAction(
                "not_your_turn", "You have already chosen what to power this round."
            )
        raise IllegalAction(
            "not_your_turn", "It is not your turn.", {"to_act": list(to_act(state))}
        )
    return spec.handler(state, seat, action)
