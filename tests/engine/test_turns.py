"""``first_to_act`` (what the bots' driver asks each move) agrees with ``to_act``."""

from __future__ import annotations

import pytest

import powergrid
from powergrid import bots
from powergrid.turns import first_to_act


@pytest.mark.parametrize(("map_", "players", "seed"), [("germany", 2, 3), ("usa", 6, 4)])
def test_first_to_act_is_the_head_of_to_act(map_: str, players: int, seed: int) -> None:
    final, moves = bots.play_game(map_, players, seed, bots.make_bots("random", players, seed))
    state = powergrid.new_game(map=map_, players=players, seed=seed)
    for seat, action in moves:
        assert first_to_act(state) == powergrid.to_act(state)[0]
        state = powergrid.apply(state, seat, action)
    assert powergrid.to_act(final) == ()
    with pytest.raises(IndexError):
        first_to_act(final)
