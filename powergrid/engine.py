"""``apply``: check a move against the state and return the next state (the input is unchanged)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from powergrid.actions import ACTIONS, check_keys
from powergrid.errors import IllegalAction, shown
from powergrid.phases import auction, build, bureaucracy, resources
from powergrid.state import AUCTION, BUREAUCRACY, FINISHED, State
from powergrid.turns import to_act

Handler = Callable[[State, int, dict[str, Any]], State]

HANDLERS: dict[str, Handler] = {
    "choose_plant": auction.choose_plant,
    "pass_auction": auction.pass_auction,
    "bid": auction.bid,
    "pass_bid": auction.pass_bid,
    "discard_plant": auction.discard_plant,
    "buy_resources": resources.buy_resources,
    "build": build.build,
    "power": bureaucracy.power,
}

#: Action type -> (its phase, its allowed fields, its handler): one look-up per move.
DISPATCH: dict[str, tuple[str, frozenset[str], Handler]] = {
    kind: (phase, fields, HANDLERS[kind]) for kind, (phase, fields) in ACTIONS.items()
}

PHASE_NAMES = {
    "auction": "the auction (phase 2)",
    "resources": "buying resources (phase 3)",
    "build": "building (phase 4)",
    "bureaucracy": "bureaucracy (phase 5)",
}


def apply(state: State, seat: int, action: dict[str, Any]) -> State:
    """The state after ``seat`` plays ``action``. Raises :class:`IllegalAction` for any bad move."""
    if type(action) is not dict:
        raise IllegalAction("invalid_field", "An action must be a JSON object with a 'type'.")
    kind = action.get("type")
    entry = DISPATCH.get(kind) if type(kind) is str else None
    if entry is None:
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
    action_phase, allowed, handler = entry
    if not allowed.issuperset(action):
        check_keys(action, allowed)  # raises, naming the unknown field
    if action_phase != phase:
        raise IllegalAction(
            "wrong_phase",
            f"{kind} is not possible now: the game is in {PHASE_NAMES[phase]}.",
            {"phase": phase},
        )
    # Whose move: the rule of each phase (as :func:`to_act`), without building its tuple.
    if phase == AUCTION:
        if state.discard is not None:
            awaited: int | None = state.discard[0]
        elif state.auction is not None:
            awaited = state.auction.turn
        else:  # the opener: the first in player order still in this round's auctions
            awaited = None
            done = state.done
            for i in state.order:
                if not done[i]:
                    awaited = i
                    break
        if awaited != seat:
            raise IllegalAction(
                "not_your_turn", "It is not your turn.", {"to_act": list(to_act(state))}
            )
    elif phase == BUREAUCRACY:
        if state.done[seat]:
            raise IllegalAction(
                "not_your_turn", "You have already chosen what to power this round."
            )
    elif state.order[state.n - 1 - state.turn] != seat:
        raise IllegalAction(
            "not_your_turn", "It is not your turn.", {"to_act": list(to_act(state))}
        )
    return handler(state, seat, action)
