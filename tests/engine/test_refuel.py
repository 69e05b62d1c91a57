"""``refuel``: the fuel a player's plants lack to power their cities (or as many cities as asked),
never more than that needs, what a turn email's one-tap "buy the fuel" offers with its price
(powergrid/helpers.py)."""

from __future__ import annotations

import powergrid
from powergrid.helpers import refuel, refuel_plan
from powergrid.state import RESOURCES
from tests.engine.helpers import at_phase, make_state, with_player

#: Enough cities for every plant of these tests to be needed.
ALL = 10
TOWNS = ["essen", "duisburg", "dusseldorf", "dortmund"]


def _buyer(**fields):
    s = at_phase(make_state(3, order=(0, 1, 2)), RESOURCES, order=(0, 1, 2))
    seat = powergrid.to_act(s)[0]
    return with_player(s, seat, **fields), seat


def test_what_the_plants_lack_is_bought_and_a_hybrid_takes_the_cheaper_fuel():
    # Plant 4 burns 2 coal, plant 5 burns 2 of coal or oil; one coal held. Coal is cheaper.
    s, seat = _buyer(plants=[4, 5], res=(1, 0, 0, 0), money=50)
    assert refuel(s, seat, cities=ALL) == {"coal": 3}


def test_a_hybrid_buys_oil_when_oil_is_cheaper():
    s, seat = _buyer(plants=[4, 5], res=(1, 0, 0, 0), money=50)
    s = s.replace(resources=(3, 18, 6, 2))  # three coal left: the dear end of its track
    assert refuel(s, seat, cities=ALL) == {"coal": 1, "oil": 2}


def test_fuel_held_beyond_a_plants_need_feeds_the_hybrid():
    s, seat = _buyer(plants=[4, 5], res=(3, 1, 0, 0), money=50)
    assert refuel(s, seat, cities=ALL) is None  # 2 coal for plant 4, 1 coal + 1 oil for the hybrid


def test_nothing_is_suggested_when_no_plant_can_be_fed():
    s, seat = _buyer(plants=[4, 5], res=(0, 0, 0, 0), money=1)
    assert refuel(s, seat, cities=ALL) is None


def test_the_suggestion_is_a_move_the_engine_accepts():
    s, seat = _buyer(plants=[3, 10], res=(0, 0, 0, 0), money=50)  # oil 2, coal 2
    amounts = refuel(s, seat, cities=ALL)
    assert amounts == {"coal": 2, "oil": 2}
    after = powergrid.apply(s, seat, {"type": "buy_resources", **amounts})
    assert after.players[seat].res[:2] == (2, 2)


def test_nothing_is_suggested_out_of_ones_turn_to_buy():
    s, seat = _buyer(plants=[4], res=(0, 0, 0, 0), money=50)
    other = next(x for x in range(3) if x != seat)
    assert refuel(s, other, cities=ALL) is None


def test_only_the_fuel_the_connected_cities_need_is_suggested():
    """Two cities, plants 4 (2 coal: 1 city) and 10 (2 coal: 2 cities): running plant 10 powers
    both, so 2 coal, not the 4 that would run both plants (the fuel for 3 cities)."""
    s, seat = _buyer(plants=[4, 10], res=(0, 0, 0, 0), money=50, cities=TOWNS[:2])
    plan = refuel_plan(s, seat)
    assert plan is not None
    assert plan.amounts == {"coal": 2}
    assert plan.cities == 2
    assert plan.cost == sum(_prices(s, "coal")[:2])


def test_more_cities_only_when_asked():
    s, seat = _buyer(plants=[4, 10], res=(0, 0, 0, 0), money=50, cities=TOWNS[:2])
    assert refuel(s, seat, cities=3) == {"coal": 4}
    assert refuel(s, seat, cities=1) == {"coal": 2}  # either plant: the cheaper tokens


def test_one_city_runs_the_cheaper_plant():
    # Plant 3 burns 2 oil, plant 4 2 coal; one city needs one of them: the cheaper fuel.
    s, seat = _buyer(plants=[3, 4], res=(0, 0, 0, 0), money=50, cities=TOWNS[:1])
    coal, oil = _prices(s, "coal")[:2], _prices(s, "oil")[:2]
    want = {"coal": 2} if sum(coal) <= sum(oil) else {"oil": 2}
    assert refuel(s, seat) == want


def test_no_city_no_fuel_and_held_fuel_counts():
    s, seat = _buyer(plants=[10], res=(0, 0, 0, 0), money=50, cities=[])
    assert refuel(s, seat) is None
    s, seat = _buyer(plants=[4, 10], res=(2, 0, 0, 0), money=50, cities=TOWNS[:2])
    assert refuel(s, seat) is None  # the 2 coal held run plant 10


def test_fewer_cities_when_all_cannot_be_paid():
    s, seat = _buyer(plants=[4, 10], res=(0, 0, 0, 0), cities=TOWNS[:3])
    two = sum(_prices(s, "coal")[:2])
    s = with_player(s, seat, money=two)
    plan = refuel_plan(s, seat)
    assert plan is not None
    assert plan.amounts == {"coal": 2}
    assert plan.cities == 2


def _prices(s, r):
    from powergrid.tables import RESOURCES as NAMES
    from powergrid.tables import market_prices

    i = NAMES.index(r)
    return market_prices(i, s.resources[i])
