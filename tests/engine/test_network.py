"""Connection costs and build quotes: the rulebook's worked examples (RULES.md, 001)."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.state import BUILD
from tests.engine.helpers import at_phase, make_state, with_player

# Germany with the areas the examples need (red: the Ruhr; cyan: Aachen and Köln).
AREAS = ("cyan", "green", "red", "yellow")
ANNA, BOB, CARL = 0, 1, 2


def ruhr(step: int = 1):
    """Anna owns Essen and Münster, Bob owns Düsseldorf; it is Anna's turn to build."""
    s = make_state(4, areas=AREAS)
    s = at_phase(s, BUILD, order=(1, 2, 3, 0), step=step)  # reverse order: seat 0 first
    s = with_player(s, ANNA, cities=["essen", "muenster"], plants=(10,))
    s = with_player(s, BOB, cities=["duesseldorf"], plants=(12,))
    return s


def test_essen_duisburg_connection_costs_nothing():
    s = ruhr()
    assert s.board.distance("essen", "duisburg") == 0


def test_anna_reaches_duisburg_dortmund_and_aachen():
    """Duisburg 10 (10 + 0); Dortmund 12 from Münster (10 + 2); Aachen 21 via Düsseldorf
    (10 + 2 + 9)."""
    costs = powergrid.legal(ruhr(), ANNA)[0]["cities"]
    assert costs["duisburg"] == 10
    assert costs["dortmund"] == 12
    assert costs["aachen"] == 21


def test_bobs_duisburg_costs_12_through_essen():
    s = ruhr()
    assert powergrid.quote_build(s, BOB, ["duisburg"]) == 10 + 2 + 0


def test_step_two_duesseldorf_17_koeln_21_both_36():
    """Step 2: Düsseldorf's second space is 15 (+2); Köln (Carl there) 15 + 2 + 4; both in one
    turn 36: first Düsseldorf for 17, then Köln from there for 19."""
    s = with_player(ruhr(step=2), CARL, cities=["koeln"])
    costs = powergrid.legal(s, ANNA)[0]["cities"]
    assert costs["duesseldorf"] == 17
    assert costs["koeln"] == 21
    assert powergrid.quote_build(s, ANNA, ["koeln", "duesseldorf"]) == 36
    after = powergrid.apply(s, ANNA, {"type": "build", "cities": ["koeln", "duesseldorf"]})
    assert after.players[ANNA].money == s.players[ANNA].money - 36
    assert after.cities["duesseldorf"] == (BOB, ANNA)
    assert after.cities["koeln"] == (CARL, ANNA)


def test_usa_memphis_to_st_louis_costs_17():
    s = make_state(4, map="usa", areas=("cyan", "purple", "red", "yellow"))
    s = at_phase(s, BUILD, order=(1, 2, 3, 0))
    s = with_player(s, 0, cities=["memphis"], plants=(10,))
    assert powergrid.quote_build(s, 0, ["st-louis"]) == 10 + 7
    assert powergrid.legal(s, 0)[0]["cities"]["st-louis"] == 17


def test_first_city_needs_no_connection():
    s = at_phase(make_state(4, areas=AREAS), BUILD, order=(1, 2, 3, 0))
    costs = powergrid.legal(s, 0)[0]["cities"]
    assert set(costs.values()) == {10}
    assert len(costs) == len(s.board.cities)


def test_several_cities_from_an_empty_network_pay_the_cheapest_tree():
    """Essen first (free), then Duisburg (0) and Düsseldorf (2): 30 + 2."""
    s = at_phase(make_state(4, areas=AREAS), BUILD, order=(1, 2, 3, 0))
    assert powergrid.quote_build(s, 0, ["duesseldorf", "duisburg", "essen"]) == 32


def test_cities_outside_the_areas_are_not_passable():
    """Aachen to Bremen runs through the red area (35 on the whole map); with red out of play
    the route must go round through yellow."""
    s = make_state(3, areas=("cyan", "green", "yellow"))
    assert "essen" not in s.board.index
    assert s.board.distance("aachen", "bremen") > 35
    s = at_phase(s, BUILD, order=(1, 2, 0))
    s = with_player(s, 0, cities=["aachen"], plants=(10,), money=200)
    around = s.board.distance("aachen", "bremen")
    assert powergrid.legal(s, 0)[0]["cities"]["bremen"] == 10 + around
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.quote_build(s, 0, ["essen"])
    assert err.value.code == "city_not_in_play"


def test_the_quote_is_the_minimum_over_all_build_orders():
    """Brute force over every order, each city connecting from the network as it then stands."""
    from itertools import permutations

    s = ruhr()
    board = s.board
    targets = ["aachen", "koeln", "dortmund", "kassel"]
    best = None
    for perm in permutations(targets):
        network = ["essen", "muenster"]
        total = 0
        for c in perm:
            total += 10 + min(board.distance(o, c) for o in network)
            network.append(c)
        best = total if best is None else min(best, total)
    assert powergrid.quote_build(s, ANNA, targets) == best
