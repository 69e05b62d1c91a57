"""JSON round trip and replay determinism."""

from __future__ import annotations

import pytest

import powergrid
from tests.engine.helpers import play_random


@pytest.mark.parametrize(
    ("seed", "players", "map_slug"), [(1, 2, "germany"), (2, 4, "usa"), (3, 6, "germany")]
)
def test_round_trip_and_replay(seed, players, map_slug):
    end, moves = play_random(seed, players, map_slug, check=False)
    s = powergrid.new_game(map=map_slug, players=players, seed=seed)
    for i, (seat, action) in enumerate(moves):
        s = powergrid.apply(s, seat, action)
        if i % 37 == 0:
            text = powergrid.to_json(s)
            back = powergrid.from_json(text)
            assert back == s
            assert powergrid.to_json(back) == text
    assert s == end
    assert powergrid.to_json(s) == powergrid.to_json(end)
    assert powergrid.from_json(powergrid.to_json(end)) == end


def test_apply_does_not_change_its_input():
    s, _moves = play_random(5, 4, max_moves=80, check=False)
    before = powergrid.to_json(s)
    seat = powergrid.to_act(s)[0]
    powergrid.apply(s, seat, powergrid.default_action(s, seat))
    assert powergrid.to_json(s) == before


def test_a_state_stored_before_editions_loads_as_the_first_edition_and_keeps_its_json():
    """Snapshots written before editions existed carry no ``edition`` key: they load as the first
    edition, and writing them again gives the same bytes (the replay check compares bytes)."""
    old = powergrid.new_game(map="france", players=3, seed=4, edition=1)
    text = powergrid.to_json(old)
    assert '"edition"' not in text
    back = powergrid.from_json(text)
    assert back.edition == 1
    assert back.removed == (13,)
    new = powergrid.new_game(map="france", players=3, seed=4)
    assert powergrid.from_json(powergrid.to_json(new)).edition == new.edition == 2


def test_an_unknown_edition_is_refused():
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.new_game(map="germany", players=3, seed=1, edition=99)
    assert err.value.code == "invalid_field"
    assert err.value.details == {"known": [1, 2]}
