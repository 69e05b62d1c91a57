"""``default_action``: the move made for a player who missed their deadline."""

from __future__ import annotations

from typing import Any

from powergrid.phases.auction import current_market, min_drop
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, RESOURCES, State
from powergrid.tables import RESOURCES as NAMES
from powergrid.turns import to_act


def default_action(state: State, seat: int) -> dict[str, Any]:
    """Decline to open (round 1: buy the cheapest affordable plant at its minimum) or pass the
    bid; discard the lowest other plant (dropping the fewest tokens, coal before oil); buy
    nothing; build nothing; power the best choice. Raises ``ValueError`` if nothing is awaited
    from ``seat``."""
    s = state
    if seat not in to_act(s):
        raise ValueError(f"nothing is awaited from seat {seat}")
    phase = s.phase
    if phase == AUCTION:
        if s.discard is not None:
            p = s.players[seat]
            new = s.discard[1]
            plant = min(n for n in p.plants if n != new)
            left = tuple(n for n in p.plants if n != plant)
            drop = min_drop(left, p.res)
            action: dict[str, Any] = {"type": "discard_plant", "plant": plant}
            if any(drop):
                action["drop"] = {NAMES[r]: drop[r] for r in range(4) if drop[r]}
            return action
        if s.auction is not None:
            return {"type": "pass_bid"}
        if s.round > 1:
            return {"type": "pass_auction"}
        money = s.players[seat].money
        plant = min(n for n in current_market(s) if n <= money)
        return {"type": "choose_plant", "plant": plant, "bid": plant}
    if phase == RESOURCES:
        return {"type": "buy_resources"}
    if phase == BUILD:
        return {"type": "build", "cities": []}
    assert phase == BUREAUCRACY
    return {"type": "power"}
