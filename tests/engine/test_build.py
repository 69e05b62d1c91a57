"""Phase 4: build spaces by step, one network, payment, and the plant-removal rule."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.state import BUILD, BUREAUCRACY
from tests.engine.helpers import at_phase, check_invariants, make_state, with_player

AREAS = ("cyan", "green", "red", "yellow")


def phase4(step=1, n=4):
    s = make_state(n, areas=AREAS)
    return at_phase(s, BUILD, order=(*tuple(range(1, n)), 0), step=step)  # seat 0 first


def test_one_player_per_city_in_step_1():
    s = with_player(phase4(), 1, cities=["essen"])
    assert "essen" not in powergrid.legal(s, 0)[0]["cities"]
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "build", "cities": ["essen"]})
    assert err.value.code == "city_full"


def test_build_spaces_cost_10_15_20_in_step_3():
    s = phase4(step=3)
    s = with_player(s, 1, cities=["essen"])
    s = with_player(s, 2, cities=["essen"])
    assert powergrid.legal(s, 0)[0]["cities"]["essen"] == 20
    s = powergrid.apply(s, 0, {"type": "build", "cities": ["essen"]})
    assert s.cities["essen"] == (1, 2, 0)
    assert s.players[0].money == 30


def test_a_player_is_at_most_once_in_a_city():
    s = with_player(phase4(step=2), 0, cities=["essen"], money=100)
    assert "essen" not in powergrid.legal(s, 0)[0]["cities"]
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "build", "cities": ["essen"]})
    assert err.value.code == "already_in_city"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "build", "cities": ["duisburg", "duisburg"]})
    assert err.value.code == "invalid_field"


def test_payment_is_mandatory_and_building_nothing_is_allowed():
    s = with_player(phase4(), 0, cities=["essen"], money=15)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "build", "cities": ["duisburg", "duesseldorf"]})
    assert err.value.code == "insufficient_funds"
    assert err.value.details == {"cost": 22, "money": 15}
    same = powergrid.apply(s, 0, {"type": "build", "cities": []})
    assert same.players[0] == s.players[0]
    assert powergrid.to_act(same) != (0,)


def test_cities_outside_the_game_cannot_be_built():
    s = phase4()
    for city in ("berlin", "atlantis"):
        with pytest.raises(powergrid.IllegalAction) as err:
            powergrid.apply(s, 0, {"type": "build", "cities": [city]})
        assert err.value.code == "city_not_in_play"


def test_reaching_six_cities_removes_every_market_plant_up_to_six():
    """RULES.md example: the 6th city removes 3, 4, 5, 6 in a row; owned plants stay.

    Seed conflict: 000 says the player with the FEWEST cities triggers removal; 001 (the full
    rulebook) and 002 say any player's count (the most): the engine follows 001."""
    s = phase4()
    s = with_player(
        s,
        0,
        cities=["essen", "duisburg", "duesseldorf", "dortmund", "muenster"],
        money=100,
        plants=(4,),
    )
    s = with_player(s, 1, plants=(3, 5))
    market = [x for x in s.market if x > 6]
    assert s.market[:2] == (6, 7)
    deck = s.deck
    after = powergrid.apply(s, 0, {"type": "build", "cities": ["koeln"]})
    assert all(x > 6 for x in after.market)
    assert 6 in after.removed
    assert after.players[1].plants == (3, 5)
    assert after.players[0].plants == (4,)
    assert len(after.market) == 8
    drawn = [x for x in after.market if x not in market]
    # Replacements drawn that were themselves at most 6 would also have gone; deck order kept.
    assert set(drawn) <= set(deck)
    check_invariants(after)


def test_first_game_caps_cities_at_seven():
    s = powergrid.new_game(players=4, seed=3, areas=list(AREAS), variant="first_game")
    s = at_phase(s, BUILD, order=(1, 2, 3, 0))
    s = with_player(
        s,
        0,
        cities=["essen", "duisburg", "duesseldorf", "dortmund", "muenster", "koeln"],
        money=200,
    )
    assert len(powergrid.legal(s, 0)[0]["cities"]) > 0
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "build", "cities": ["aachen", "kassel"]})
    assert err.value.code == "invalid_field"
    s = powergrid.apply(s, 0, {"type": "build", "cities": ["aachen"]})
    assert powergrid.legal(s, 0) == []


def test_step_2_begins_after_phase_4_and_removes_the_lowest_plant():
    s = with_player(
        phase4(),
        0,
        cities=["essen", "duisburg", "duesseldorf", "dortmund", "muenster", "koeln"],
        money=100,
    )
    s = powergrid.apply(s, 0, {"type": "build", "cities": ["aachen"]})
    assert s.step == 1  # not during phase 4
    lowest = s.market[0]
    for seat in (3, 2, 1):
        s = powergrid.apply(s, seat, {"type": "build", "cities": []})
    assert s.phase == BUREAUCRACY
    assert s.step == 2
    assert lowest in s.removed
    assert len(s.market) == 8
    check_invariants(s)


def _six_player_build(edition: int) -> tuple[powergrid.State, list[str], str]:
    """A 6-player game in phase 4 (step 2, seat 0 first) in which seat 0 has 22 cities and 1,000
    Elektro; returns it, its cities and a 23rd city it can reach."""
    s = powergrid.new_game(map="germany", players=6, seed=5, edition=edition)
    s = at_phase(s, BUILD, order=(1, 2, 3, 4, 5, 0), step=2)
    cities = list(s.board.cities)
    s = with_player(s, 0, cities=cities[:22], money=1000)
    return s, cities[:22], cities[22]


def test_the_stock_of_houses_is_unlimited():
    """Seed 000: 都市コマのストックは無限. A player may connect a 23rd city and more."""
    s, _own, more = _six_player_build(edition=2)
    assert more in powergrid.legal(s, 0)[0]["cities"]
    after = powergrid.apply(s, 0, {"type": "build", "cities": [more]})
    assert len(after.players[0].cities) == 23
    check_invariants(after)


def test_a_first_edition_game_keeps_its_22_city_cap():
    s, _own, more = _six_player_build(edition=1)
    assert powergrid.legal(s, 0)[0]["cities"] == {}
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "build", "cities": [more]})
    assert err.value.details == {"max_cities": 22}


def test_a_list_longer_than_the_cities_in_play_is_refused_before_it_is_read():
    s = with_player(phase4(), 0, money=10_000)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "build", "cities": ["essen"] * (len(s.board.cities) + 1)})
    assert err.value.details == {"max_cities": len(s.board.cities)}
