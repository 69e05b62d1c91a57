"""The Power Grid rules engine: pure Python, deterministic, immutable states.

state = powergrid.new_game(map="germany", players=4, seed=1)
state = powergrid.apply(state, seat, {"type": "choose_plant", "plant": 3, "bid": 3})
powergrid.legal(state, seat)      # the moves seat may send now
powergrid.view(state, seat)       # what seat may see (JSON-ready)
"""

from __future__ import annotations

from powergrid.actions import ACTION_TYPES, ACTIONS
from powergrid.default import default_action
from powergrid.engine import apply
from powergrid.errors import CODES, IllegalAction
from powergrid.helpers import best_power, quote_build
from powergrid.legal import legal
from powergrid.serialize import from_json, to_json
from powergrid.setup import new_game
from powergrid.state import Player, State
from powergrid.turns import to_act
from powergrid.view import view

__all__ = [
    "ACTIONS",
    "ACTION_TYPES",
    "CODES",
    "IllegalAction",
    "Player",
    "State",
    "apply",
    "best_power",
    "default_action",
    "from_json",
    "legal",
    "new_game",
    "quote_build",
    "to_act",
    "to_json",
    "view",
]
