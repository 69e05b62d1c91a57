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
