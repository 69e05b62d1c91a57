"""Phase 5: simultaneous powering, income, resupply, the plant market turnover, the next round."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.state import AUCTION, BUREAUCRACY
from powergrid.tables import income
from tests.engine.helpers import at_phase, check_invariants, make_state, with_player


def phase5(n=4, step=1):
    return at_phase(
        make_state(n, areas=("cyan", "green", "red", "yellow")),
        BUREAUCRACY,
        order=(2, 0, 3, 1),
        step=step,
    )


def test_income_table_edges():
    assert income(0) == 10
    assert income(1) == 22
    assert income(20) == 150
    assert income(25) == 150


def test_every_player_who_has_not_chosen_is_awaited_at_once():
    s = phase5()
    assert powergrid.to_act(s) == (2, 0, 3, 1)
    s = powergrid.apply(s, 3, {"type": "power"})
    assert powergrid.to_act(s) == (2, 0, 1)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 3, {"type": "power"})
    assert err.value.code == "not_your_turn"
    assert powergrid.legal(s, 3) == []


def test_powering_burns_tokens_and_pays_income():
    s = phase5()
    s = with_player(s, 0, plants=(4, 13), res=(3, 0, 0, 0), cities=["essen", "duisburg", "koeln"])
    assert powergrid.legal(s, 0) == [{"type": "power", "plants": [4, 13], "max_cities": 2}]
    supply = s.supply()
    after = powergrid.apply(s, 0, {"type": "power", "plants": [4, 13]})
    assert after.players[0].res == (1, 0, 0, 0)
    assert after.players[0].money == 50 + 33
    assert after.supply()[0] == supply[0] + 2  # burnt tokens go to the supply


def test_powering_nothing_pays_10_and_cities_cap_the_income():
    s = phase5()
    s = with_player(s, 0, plants=(13,), cities=[])
    after = powergrid.apply(s, 0, {"type": "power"})
    assert after.players[0].money == 60


def test_power_errors():
    s = with_player(phase5(), 0, plants=(4, 5), res=(2, 0, 0, 0), cities=["essen"])
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "power", "plants": [4, 5]})
    assert err.value.code == "not_enough_resources"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "power", "plants": [6]})
    assert err.value.code == "plant_not_owned"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "power", "plants": [4, 4]})
    assert err.value.code == "invalid_field"


def test_hybrid_mix_is_the_players_choice():
    s = with_player(phase5(), 0, plants=(5,), res=(1, 3, 0, 0), cities=["essen"])
    after = powergrid.apply(
        s, 0, {"type": "power", "plants": [5], "hybrid": {"5": {"coal": 0, "oil": 2}}}
    )
    assert after.players[0].res == (1, 1, 0, 0)
    after = powergrid.apply(s, 0, {"type": "power", "plants": [5]})
    assert after.players[0].res == (0, 2, 0, 0)  # coal first by default
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(
            s, 0, {"type": "power", "plants": [5], "hybrid": {"5": {"coal": 2, "oil": 0}}}
        )
    assert err.value.code == "not_enough_resources"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(
            s, 0, {"type": "power", "plants": [5], "hybrid": {"5": {"coal": 1, "oil": 2}}}
        )
    assert err.value.code == "invalid_field"


def test_after_everyone_powered_the_market_turns_over_and_a_round_begins():
    """Steps 1-2: the highest future plant goes under the deck and one is drawn."""
    s = phase5()
    s = with_player(s, 0, cities=["essen", "duisburg"], plants=(10,))
    s = with_player(s, 3, cities=["koeln"], plants=(20,))
    s = with_player(s, 1, plants=(15,))
    s = with_player(s, 2, plants=(16,))
    highest = s.market[-1]
    top = s.deck[0]
    for seat in (0, 1, 2, 3):
        s = powergrid.apply(s, seat, {"type": "power"})
    assert s.deck[-1] == highest
    assert top in s.market
    assert highest not in s.market
    assert s.phase == AUCTION
    assert s.round == 3
    # Phase 1: most cities first, then highest plant.
    assert s.order == (0, 3, 2, 1)
    check_invariants(s)


def test_step_3_market_turnover_removes_the_lowest():
    s = phase5(step=3)
    s = s.replace(market=s.market[:6], removed=(*s.removed, *make_state(4).market[6:]))
    lowest = s.market[0]
    for seat in range(4):
        s = powergrid.apply(s, seat, {"type": "power"})
    assert lowest in s.removed
    assert len(s.market) == 6
