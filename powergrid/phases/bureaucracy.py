"""Phase 5: powering (simultaneous), income, resupply, the plant market; then the next round."""

from __future__ import annotations

from typing import Any

from powergrid.errors import IllegalAction
from powergrid.fields import int_field, plant_field, plant_key
from powergrid.plant_market import PlantMarketOps
from powergrid.plants import PLANTS, RANK
from powergrid.power import PowerChoice, best_power, burn_need, can_fire, powers
from powergrid.state import AUCTION, BUREAUCRACY, State
from powergrid.tables import MARKET_CAPACITY, RESUPPLY, income


def choose_power(s: State, seat: int, a: dict[str, Any]) -> PowerChoice:
    """Validate a power action: the plants it fires, the cities they power, the tokens burnt."""
    p = s.players[seat]
    ncities = len(p.cities)
    if "plants" not in a or a["plants"] is None:
        if a.get("hybrid"):
            raise IllegalAction(
                "invalid_field", "Say which plants to fire (plants) when giving a hybrid mix."
            )
        return best_power(p.plants, p.res, ncities)
    raw = a["plants"]
    if type(raw) is not list and type(raw) is not tuple:
        raise IllegalAction(
            "invalid_field",
            "The field 'plants' must be a list of plant numbers.",
            {"field": "plants"},
        )
    fired_list: list[int] = []
    for x in raw:
        n = plant_field(x, "plants")
        if n not in p.plants:
            raise IllegalAction("plant_not_owned", f"You do not own plant {n}.", {"plant": n})
        if n in fired_list:
            raise IllegalAction("invalid_field", f"Plant {n} can fire only once.", {"plant": n})
        fired_list.append(n)
    fired = tuple(sorted(fired_list))
    res = p.res
    need = burn_need(fired)
    if not can_fire(res, need):
        raise IllegalAction(
            "not_enough_resources",
            "You do not have the resources to fire all those plants.",
            {"plants": list(fired)},
        )
    given: dict[int, tuple[int, int]] = {}
    mix = a.get("hybrid")
    if mix is not None:
        if type(mix) is not dict:
            raise IllegalAction(
                "invalid_field",
                "The field 'hybrid' must map plant numbers to {coal, oil}.",
                {"field": "hybrid"},
            )
        for key, value in mix.items():
            n = plant_key(key)
            if n not in fired or PLANTS[n].fuel != "hybrid":
                raise IllegalAction(
                    "invalid_field", f"Plant {n} is not a hybrid plant you fire.", {"plant": n}
                )
            if type(value) is not dict or not set(value) <= {"coal", "oil"}:
                raise IllegalAction(
                    "invalid_field", 'A hybrid mix is {"coal": n, "oil": n}.', {"plant": n}
                )
            c = int_field(value.get("coal", 0), "coal")
            o = int_field(value.get("oil", 0), "oil")
            if c + o != PLANTS[n].burns:
                raise IllegalAction(
                    "invalid_field",
                    f"Plant {n} burns exactly {PLANTS[n].burns} coal and oil together.",
                    {"plant": n, "burns": PLANTS[n].burns},
                )
            given[n] = (c, o)
    # Hybrids without a given mix burn what remains, coal first.
    spare_c = res[0] - need[0] - sum(c for c, _ in given.values())
    spare_o = res[1] - need[1] - sum(o for _, o in given.values())
    split = dict(given)
    for n in fired:
        if PLANTS[n].fuel == "hybrid" and n not in given:
            b = PLANTS[n].burns
            c = min(b, max(spare_c, 0))
            split[n] = (c, b - c)
            spare_c -= c
            spare_o -= b - c
    if spare_c < 0 or spare_o < 0:
        raise IllegalAction(
            "not_enough_resources",
            "You do not have the coal and oil for that hybrid mix.",
            {"plants": list(fired)},
        )
    hc = sum(c for c, _ in split.values())
    ho = sum(o for _, o in split.values())
    burnt = (need[0] + hc, need[1] + ho, need[3], need[4])
    return PowerChoice(fired, min(powers(fired), ncities), burnt)


def power(s: State, seat: int, a: dict[str, Any]) -> State:
    if s.done[seat]:
        raise IllegalAction("not_your_turn", "You have already chosen what to power this round.")
    p = s.players[seat]
    if a.get("plants") is None and not a.get("hybrid"):  # the best choice: no call to check
        powered, burnt = best_power(p.plants, p.res, len(p.cities))[1:]
    else:
        powered, burnt = choose_power(s, seat, a)[1:]
    s = s.copy()
    q = p.copy()
    res = p.res
    q.res = (res[0] - burnt[0], res[1] - burnt[1], res[2] - burnt[2], res[3] - burnt[3])
    q.money += income(powered)
    players = list(s.players)
    players[seat] = q
    s.players = tuple(players)
    done = list(s.done)
    done[seat] = True
    s.done = tuple(done)
    pw = list(s.powered)
    pw[seat] = powered
    s.powered = tuple(pw)
    if all(done):
        _end_round(s)
    return s


def _end_round(s: State) -> None:
    # Resupply, capped by the supply and the market's free places.
    want = RESUPPLY[s.n][s.step - 1]
    supply = s.supply()
    m = list(s.resources)
    for r in range(4):
        m[r] += min(want[r], supply[r], MARKET_CAPACITY[r] - m[r])
    s.resources = (m[0], m[1], m[2], m[3])
    # The plant market's turnover.
    ops = PlantMarketOps(s, BUREAUCRACY)
    if s.step < 3:
        ops.deck.append(ops.market.pop())
        ops.draw()
    else:
        ops.remove_lowest()
        ops.draw()
    ops.settle()
    ops.commit()
    start_round(s)


def start_round(s: State) -> None:
    """Phase 1 of a new round: player order by cities, then highest plant; then the auction."""
    s.round += 1
    # Most cities first, then the highest plant (plants are kept sorted: the last), ties keeping
    # the old order (a stable sort); the keys made once per seat rather than per comparison.
    keys = [(-len(p.cities), -RANK[p.plants[-1]] if p.plants else 0) for p in s.players]
    s.order = tuple(sorted(s.order, key=keys.__getitem__))
    s.phase = AUCTION
    s.done = (False,) * s.n
    s.bought_any = False
    s.auction = None
    s.discard = None
    s.turn = 0


__all__ = ["BUREAUCRACY", "choose_power", "power", "start_round"]
