"""The end of the game: after phase 4 of the round someone reaches the end count."""

from __future__ import annotations

import powergrid
from powergrid.state import BUILD, FINISHED
from tests.engine.helpers import at_phase, make_state, with_player

AREAS = ("cyan", "green", "red", "yellow")
SEVENTEEN = [
    "essen",
    "duisburg",
    "duesseldorf",
    "dortmund",
    "muenster",
    "koeln",
    "aachen",
    "kassel",
    "osnabrueck",
    "bremen",
    "hamburg",
    "hannover",
    "kiel",
    "cuxhaven",
    "wilhelmshaven",
    "flensburg",
]


def endgame():
    s = at_phase(make_state(4, areas=AREAS), BUILD, order=(1, 2, 3, 0), step=3)
    s = with_player(s, 0, cities=SEVENTEEN, plants=(13, 18, 22), money=100)  # 16 cities, eco 5
    s = with_player(
        s, 1, cities=["frankfurt-m", "mannheim", "trier"], plants=(4,), res=(4, 0, 0, 0), money=30
    )
    s = with_player(s, 2, cities=["wiesbaden", "saarbruecken"], plants=(33,), money=30)
    return s


def test_game_ends_after_phase_4_with_best_power_and_no_income():
    s = powergrid.apply(endgame(), 0, {"type": "build", "cities": ["erfurt"]})
    assert s.phase == BUILD  # the round's phase 4 finishes first
    for seat in (3, 2, 1):
        s = powergrid.apply(s, seat, {"type": "build", "cities": []})
    assert s.phase == FINISHED
    assert powergrid.to_act(s) == ()
    result = powergrid.view(s, None)["result"]
    by_seat = {r["seat"]: r for r in result}
    assert by_seat[0]["powered"] == 5
    assert by_seat[0]["rank"] == 1
    # Seats 1 and 2 both power 2: money ties (30), then the most cities connected wins.
    assert by_seat[1]["powered"] == 1  # plant 4 powers 1
    assert by_seat[2]["powered"] == 2
    assert by_seat[2]["rank"] == 2
    assert by_seat[1]["rank"] == 3
    assert s.players[1].money == 30  # no income in the last round


def test_ties_on_power_go_to_money_then_cities():
    s = endgame()
    s = with_player(s, 1, plants=(13, 4), res=(2, 0, 0, 0))  # powers 2
    s = powergrid.apply(s, 0, {"type": "build", "cities": ["erfurt"]})
    for seat in (3, 2, 1):
        s = powergrid.apply(s, seat, {"type": "build", "cities": []})
    ranks = {r["seat"]: r["rank"] for r in powergrid.view(s, None)["result"]}
    # Seats 1 and 2 power 2 with 30 each; seat 1 has 3 cities against 2.
    assert ranks[1] == 2
    assert ranks[2] == 3


def test_first_game_ends_at_seven_cities():
    s = powergrid.new_game(players=4, seed=5, areas=list(AREAS), variant="first_game")
    s = at_phase(s, BUILD, order=(1, 2, 3, 0))
    s = with_player(s, 0, cities=SEVENTEEN[:6], plants=(13,), money=100)
    s = powergrid.apply(s, 0, {"type": "build", "cities": ["aachen"]})
    for seat in (3, 2, 1):
        s = powergrid.apply(s, seat, {"type": "build", "cities": []})
    assert s.phase == FINISHED
    assert s.step == 1
