"""``refuel``: the fuel a player's plants lack to all run once, what a turn email's one-tap "buy
the fuel" offers (powergrid/helpers.py)."""

from __future__ import annotations

import powergrid
from powergrid.helpers import refuel
from powergrid.state import RESOURCES
from tests.engine.helpers import at_phase, make_state, with_player


def _buyer(**fields):
    s = at_phase(make_state(3, order=(0, 1, 2)), RESOURCES, order=(0, 1, 2))
    seat = powergrid.to_act(s)[0]
    return with_player(s, seat, **fields), seat


def test_what_the_plants_lack_is_bought_and_a_hybrid_takes_the_cheaper_fuel():
    # Plant 4 burns 2 coal, plant 5 burns 2 of coal or oil; one coal held. Coal is cheaper.
    s, seat = _buyer(plants=[4, 5], res=(1, 0, 0, 0), money=50)
    assert refuel(s, seat) == {"coal": 3}


def test_a_hybrid_buys_oil_when_oil_is_cheaper():
    s, seat = _buyer(plants=[4, 5], res=(1, 0, 0, 0), money=50)
    s = s.replace(resources=(3, 18, 6, 2))  # three coal left: the dear end of its track
    assert refuel(s, seat) == {"coal": 1, "oil": 2}


def test_fuel_held_beyond_a_plants_need_feeds_the_hybrid():
    s, seat = _buyer(plants=[4, 5], res=(3, 1, 0, 0), money=50)
    assert refuel(s, seat) is None  # 2 coal for plant 4, 1 coal + 1 oil for the hybrid


def test_nothing_is_suggested_when_it_cannot_all_be_paid():
    s, seat = _buyer(plants=[4, 5], res=(0, 0, 0, 0), money=2)
    assert refuel(s, seat) is None


def test_the_suggestion_is_a_move_the_engine_accepts():
    s, seat = _buyer(plants=[3, 10], res=(0, 0, 0, 0), money=50)  # oil 2, coal 2
    amounts = refuel(s, seat)
    assert amounts == {"coal": 2, "oil": 2}
    after = powergrid.apply(s, seat, {"type": "buy_resources", **amounts})
    assert after.players[seat].res[:2] == (2, 2)


def test_nothing_is_suggested_out_of_ones_turn_to_buy():
    s, seat = _buyer(plants=[4], res=(0, 0, 0, 0), money=50)
    other = next(x for x in range(3) if x != seat)
    assert refuel(s, other) is None
