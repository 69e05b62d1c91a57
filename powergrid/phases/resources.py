"""Phase 3: buying resources, in reverse player order; one action is a player's whole purchase."""

from __future__ import annotations

from typing import Any

from powergrid.errors import IllegalAction
from powergrid.fields import MAX_NUMBER, int_field
from powergrid.power import capacity, fits, room_for
from powergrid.state import BUILD, State
from powergrid.tables import RESOURCES as NAMES
from powergrid.tables import buy_cost


def buy_resources(s: State, seat: int, a: dict[str, Any]) -> State:
    want = [0, 0, 0, 0]
    for r in range(4):
        name = NAMES[r]
        if name in a:
            n = a[name]
            if type(n) is not int or n < 0 or n > MAX_NUMBER:
                int_field(n, name)  # raises
            want[r] = n
    market = s.resources
    p = s.players[seat]
    if want[0] or want[1] or want[2] or want[3]:
        for r in range(4):
            if want[r] > market[r]:
                raise IllegalAction(
                    "market_exhausted",
                    f"The market has only {market[r]} {NAMES[r]}.",
                    {"resource": NAMES[r], "available": market[r]},
                )
        res = p.res
        after = (res[0] + want[0], res[1] + want[1], res[2] + want[2], res[3] + want[3])
        caps = capacity(p.plants)
        if not fits(after, caps):
            raise IllegalAction(
                "no_storage",
                "Your plants cannot store all of that.",
                {"room": {NAMES[r]: room_for(res, caps, r) for r in range(4)}},
            )
        cost = 0
        for r in range(4):
            if want[r]:
                cost += buy_cost(r, market[r], want[r])
        if cost > p.money:
            raise IllegalAction(
                "insufficient_funds",
                f"That costs {cost} Elektro; you have {p.money}.",
                {"cost": cost, "money": p.money},
            )
        s = s.copy()
        q = p.copy()
        q.money -= cost
        q.res = after
        players = list(s.players)
        players[seat] = q
        s.players = tuple(players)
        s.resources = (
            market[0] - want[0],
            market[1] - want[1],
            market[2] - want[2],
            market[3] - want[3],
        )
    else:
        s = s.copy()
    s.turn += 1
    if s.turn == s.n:
        s.phase = BUILD
        s.turn = 0
    return s
