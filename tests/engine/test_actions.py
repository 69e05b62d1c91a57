"""The action registry: one description per action type, and everything that derives from it."""

from __future__ import annotations

import pytest

import powergrid
from powergrid import bots
from powergrid.actions import ACTIONS
from powergrid.describe import move_entries, sentence
from powergrid.state import PHASES


def test_every_action_type_belongs_to_a_phase_with_moves():
    for spec in ACTIONS.values():
        assert spec.phase in PHASES
        assert PHASES[spec.phase][1] is not None  # a numbered phase of the round


def test_the_allowed_fields_are_the_described_ones_and_the_type():
    for spec in ACTIONS.values():
        assert spec.allowed == {"type", *(f.name for f in spec.fields)}


@pytest.mark.parametrize("kind", list(ACTIONS))
def test_a_field_not_described_is_refused_for_every_type(kind):
    s = powergrid.new_game(map="germany", players=3, seed=2)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, s.order[0], {"type": kind, "nonsense": 1})
    assert err.value.code == "invalid_field"
    assert err.value.details is not None
    assert err.value.details["field"] == "'nonsense'"  # shown as a Python literal


def test_an_action_of_another_phase_names_the_phase_it_is():
    s = powergrid.new_game(map="germany", players=3, seed=2)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, s.order[0], {"type": "buy_resources"})
    assert err.value.code == "wrong_phase"
    assert "phase 2 (auction)" in err.value.message


def test_every_move_of_a_whole_game_has_a_log_line_with_all_its_parameters():
    """Played by the random bots: each move's entries name a sentence whose every parameter is
    known (the server fills ``name`` itself)."""
    seen: set[str] = set()
    for variant in ("standard", "sealed_bid"):  # seal_bid belongs to the sealed-bid variant
        state = powergrid.new_game(map="germany", players=4, seed=5, variant=variant)
        players = bots.make_bots("random", 4, 5)
        while state.phase != "finished":
            seat = powergrid.to_act(state)[0]
            action = players[seat].choose(state, seat)
            after = powergrid.apply(state, seat, action)
            for entry in move_entries(action, seat, powergrid.view(state), powergrid.view(after)):
                seen.add(entry["kind"])
                params = {"name": "x", **entry["params"]}
                said = sentence(entry)
                for text in filter(None, (said.text, said.plural)):
                    text % params  # a missing parameter raises KeyError
            state = after
    assert set(ACTIONS) - {"discard_plant"} <= seen
    assert {"sale", "step", "round", "finished"} <= seen


def test_a_purchase_is_logged_with_its_tokens_and_their_cost():
    s = powergrid.new_game(map="germany", players=2, seed=1)
    # Round 1: each opens an auction for the cheapest plant at its minimum; the other passes.
    while s.phase == "auction":
        seat = powergrid.to_act(s)[0]
        entry = powergrid.legal(s, seat)[0]
        if entry["type"] == "choose_plant":
            plant = min(entry["plants"], key=lambda p: p["number"])
            action = {"type": "choose_plant", "plant": plant["number"], "bid": plant["min_bid"]}
        else:
            action = {"type": "pass_bid"}
        s = powergrid.apply(s, seat, action)
    seat = powergrid.to_act(s)[0]
    offer = powergrid.legal(s, seat)[0]
    r, prices = next(iter(offer["prices"].items()))
    action = {"type": "buy_resources", r: 1}
    after = powergrid.apply(s, seat, action)
    (entry,) = move_entries(action, seat, powergrid.view(s), powergrid.view(after))
    assert entry["params"]["tokens"] == {r: 1}
    assert entry["params"]["cost"] == prices[0]
    assert sentence(entry).text == "%(name)s bought %(tokens)s for %(cost)s."
