"""Every refusal is an IllegalAction with a code from API.md, never another exception."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.errors import CODES
from powergrid.network import board_for
from powergrid.state import BUILD, BUREAUCRACY, FINISHED, RESOURCES
from tests.engine.helpers import at_phase, make_state, with_player

REACHED: set[str] = set()


def refused(s, seat, action):
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, seat, action)
    e = err.value
    assert e.code in CODES
    assert isinstance(e.message, str)
    assert e.message
    REACHED.add(e.code)
    return e


BAD_INPUTS = [
    None,
    [],
    "choose_plant",
    {},
    {"type": 3},
    {"type": "jump"},
    {"type": "choose_plant"},
    {"type": "choose_plant", "plant": "3"},
    {"type": "choose_plant", "plant": 3.0},
    {"type": "choose_plant", "plant": True},
    {"type": "choose_plant", "plant": 3, "bid": True},
    {"type": "choose_plant", "plant": 3, "bid": -3},
    {"type": "choose_plant", "plant": 3, "bid": 10**40},
    {"type": "choose_plant", "plant": 3, "bid": 3, "extra": 1},
    {"type": "choose_plant", "plant": 2},
    {"type": "choose_plant", "plant": -1},
    {"type": "bid", "amount": 5},
    {"type": "buy_resources"},
    {"type": "power"},
]


@pytest.mark.parametrize("action", BAD_INPUTS)
def test_bad_input_is_refused_cleanly(action):
    s = make_state(4, order=(0, 1, 2, 3))
    refused(s, 0, action)


@pytest.mark.parametrize("seat", [-1, 4, 99, True, "0", None])
def test_bad_seats(seat):
    s = make_state(4, order=(0, 1, 2, 3))
    e = refused(s, seat, {"type": "choose_plant", "plant": 3, "bid": 3})
    assert e.code == "invalid_field"


def test_every_code_is_reachable():
    REACHED.clear()
    s = make_state(4, order=(0, 1, 2, 3), areas=("cyan", "green", "red", "yellow"))
    assert refused(s, 1, {"type": "choose_plant", "plant": 3}).code == "not_your_turn"
    assert refused(s, 0, {"type": "build", "cities": []}).code == "wrong_phase"
    assert refused(s, 0, {"type": "dance"}).code == "unknown_action"
    assert refused(s, 0, {"type": "choose_plant", "plant": "x"}).code == "invalid_field"
    assert refused(s, 0, {"type": "choose_plant", "plant": 41}).code == "unknown_plant"
    assert refused(s, 0, {"type": "choose_plant", "plant": 10}).code == "plant_not_available"
    assert refused(s, 0, {"type": "choose_plant", "plant": 3, "bid": 2}).code == "bid_too_low"
    e = refused(s, 0, {"type": "choose_plant", "plant": 3, "bid": 51})
    assert e.code == "insufficient_funds"
    assert refused(s, 0, {"type": "pass_auction"}).code == "cannot_pass_round_one"

    r = with_player(at_phase(s, RESOURCES, order=(1, 2, 3, 0)), 0, plants=(4,))
    assert refused(r, 0, {"type": "buy_resources", "oil": 1}).code == "no_storage"
    r2 = with_player(r, 0, plants=(11,))
    assert refused(r2, 0, {"type": "buy_resources", "uranium": 3}).code == "market_exhausted"

    b = with_player(at_phase(s, BUILD, order=(1, 2, 3, 0)), 1, cities=["essen"])
    assert refused(b, 0, {"type": "build", "cities": ["essen"]}).code == "city_full"
    b2 = with_player(b, 0, cities=["duisburg"])
    assert refused(b2, 0, {"type": "build", "cities": ["duisburg"]}).code == "already_in_city"
    bad_city = refused(
        at_phase(s, BUILD, order=(1, 2, 3, 0)), 0, {"type": "build", "cities": ["x"]}
    )
    assert bad_city.code == "city_not_in_play"

    p = with_player(at_phase(s, BUREAUCRACY), 0, plants=(4,))
    assert refused(p, 0, {"type": "power", "plants": [5]}).code == "plant_not_owned"
    assert refused(p, 0, {"type": "power", "plants": [4]}).code == "not_enough_resources"

    over = s.replace(phase=FINISHED)
    assert refused(over, 0, {"type": "power"}).code == "game_over"

    # Set-up and a board whose cities are not one network (tests/engine/test_map_rules.py).
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.new_game(map="italy", players=2, seed=1, areas=["blue", "green", "red"])
    REACHED.add(err.value.code)
    cut = board_for("italy", ("blue", "green", "red"))
    far = next(c for c in cut.cities if cut.dist[0][cut.index[c]] >= 1 << 40)
    italy = make_state(2, map="italy", areas=("blue", "green", "yellow"))
    italy = with_player(italy, 0, cities=(cut.cities[0],), money=500).replace(board=cut)
    unreachable = refused(
        at_phase(italy, BUILD, order=(1, 0)), 0, {"type": "build", "cities": [far]}
    )
    assert unreachable.code == "city_unreachable"
    assert REACHED == CODES  # every code the engine can raise was produced above


def test_city_full_and_already_in_city_on_a_fixed_board():
    s = make_state(4, order=(0, 1, 2, 3), areas=("cyan", "green", "red", "yellow"))
    b = with_player(at_phase(s, BUILD, order=(1, 2, 3, 0)), 1, cities=["essen"])
    assert refused(b, 0, {"type": "build", "cities": ["essen"]}).code == "city_full"
    b2 = with_player(b, 0, cities=["duisburg"])
    assert refused(b2, 0, {"type": "build", "cities": ["duisburg"]}).code == "already_in_city"
    assert refused(b2, 0, {"type": "build", "cities": "duisburg"}).code == "invalid_field"
    assert refused(b2, 0, {"type": "build", "cities": [7]}).code == "invalid_field"


def test_refusals_leave_the_state_unchanged():
    s = make_state(4, order=(0, 1, 2, 3))
    before = powergrid.to_json(s)
    refused(s, 0, {"type": "choose_plant", "plant": 3, "bid": 99})
    assert powergrid.to_json(s) == before


def test_error_dict_shape():
    e = powergrid.IllegalAction("bid_too_low", "The bid must be at least 16.", {"min": 16})
    assert e.to_dict() == {
        "code": "bid_too_low",
        "message": "The bid must be at least 16.",
        "details": {"min": 16},
    }
