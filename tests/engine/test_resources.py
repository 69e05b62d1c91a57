"""Phase 3: the resource market, storage, cheapest-first prices, reverse order; and resupply."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.state import BUILD, BUREAUCRACY, RESOURCES
from powergrid.tables import market_prices
from tests.engine.helpers import at_phase, make_state, with_player


def test_starting_market_cheapest_prices():
    s = make_state(4)
    prices = powergrid.view(s, 0)["resource_market"]
    assert prices["coal"][0] == 1
    assert len(prices["coal"]) == 24
    assert prices["oil"][0] == 3
    assert len(prices["oil"]) == 18
    assert prices["garbage"] == [7, 7, 7, 8, 8, 8]
    assert prices["uranium"] == [14, 16]


def phase3(plants=(4, 5), money=50):
    s = at_phase(make_state(4), RESOURCES, order=(1, 2, 3, 0))  # seat 0 buys first
    return with_player(s, 0, plants=plants, money=money)


def test_buying_takes_the_cheapest_tokens_first():
    s = powergrid.apply(phase3(), 0, {"type": "buy_resources", "coal": 4})
    assert s.players[0].money == 50 - (1 + 1 + 1 + 2)
    assert s.players[0].res == (4, 0, 0, 0)
    assert market_prices(0, s.resources[0])[0] == 2


def test_storage_is_twice_the_burn_and_hybrids_share_coal_and_oil():
    """Plant 4 (coal, burns 2) stores 4 coal; hybrid 5 stores 4 coal or oil in any mix."""
    s = phase3()
    legal = powergrid.legal(s, 0)[0]
    assert legal["max"] == {"coal": 8, "oil": 4, "garbage": 0, "uranium": 0}
    assert legal["prices"]["coal"] == [1, 1, 1, 2, 2, 2, 3, 3]
    assert legal["prices"]["oil"] == [3, 3, 3, 4]
    ok = powergrid.apply(s, 0, {"type": "buy_resources", "coal": 6, "oil": 2})
    assert ok.players[0].res == (6, 2, 0, 0)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "buy_resources", "coal": 6, "oil": 3})
    assert err.value.code == "no_storage"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "buy_resources", "garbage": 1})
    assert err.value.code == "no_storage"


def test_money_limits_the_offer_and_the_purchase():
    s = phase3(money=4)
    assert powergrid.legal(s, 0)[0]["max"]["coal"] == 3  # 1 + 1 + 1; a fourth costs 2
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "buy_resources", "coal": 4})
    assert err.value.code == "insufficient_funds"


def test_cannot_buy_more_than_the_market_holds():
    s = phase3(plants=(11, 17, 23))  # uranium plants: 2 + 2 + 2 storage
    assert powergrid.legal(s, 0)[0]["max"]["uranium"] == 2
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "buy_resources", "uranium": 3})
    assert err.value.code == "market_exhausted"


def test_buying_goes_in_reverse_player_order_and_nothing_is_allowed():
    s = at_phase(make_state(4), RESOURCES, order=(2, 0, 3, 1))
    seen = []
    for _ in range(4):
        (seat,) = powergrid.to_act(s)
        seen.append(seat)
        s = powergrid.apply(s, seat, {"type": "buy_resources"})
    assert seen == [1, 3, 0, 2]
    assert s.phase == BUILD


def test_resupply_five_players_capped_by_the_supply():
    """RULES.md: round 1 sold 10 coal, 2 oil, 1 garbage; the supply holds only 4 coal."""
    s = at_phase(make_state(5), BUREAUCRACY)
    s = s.replace(resources=(24 - 10, 18 - 2, 6 - 1, 2))
    # Players hold the coal bought except what makes the supply 4: 24 - 14 - 4 = 6 held.
    s = with_player(s, 0, plants=(4, 8), res=(6, 0, 0, 0))
    s = with_player(s, 1, plants=(7,), res=(0, 2, 0, 0))
    s = with_player(s, 2, plants=(6,), res=(0, 0, 1, 0))
    assert s.supply()[0] == 4
    for seat in range(5):
        s = powergrid.apply(s, seat, {"type": "power", "plants": []})
    prices = powergrid.view(s, 0)["resource_market"]
    assert prices["coal"][:4] == [3, 3, 3, 4]  # 4 added: 1 on space 4, 3 on space 3
    assert len(prices["coal"]) == 18
    assert prices["oil"][:4] == [2, 2, 3, 3]  # 2 on space 3, 2 on space 2
    assert prices["garbage"][:3] == [6, 6, 7]  # 1 on 7, 2 on 6
    assert prices["uranium"] == [10, 12, 14, 16]
