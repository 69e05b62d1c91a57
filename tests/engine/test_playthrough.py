"""Random playthroughs: every move legal offers is accepted, invariants hold after each move,
default actions are always accepted, and games end."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid
from tests.engine.helpers import check_invariants, random_move


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    map_slug=st.sampled_from(["germany", "usa"]),
    variant=st.sampled_from(["standard", "standard", "first_game"]),
    lazy=st.floats(0, 0.3),
)
def test_random_games_keep_the_invariants_and_end(seed, players, map_slug, variant, lazy):
    rng = random.Random(seed)
    s = powergrid.new_game(map=map_slug, players=players, seed=seed, variant=variant)
    for _ in range(3000):
        if s.phase == "finished":
            break
        if rng.random() < lazy:
            seat = rng.choice(powergrid.to_act(s))
            action = powergrid.default_action(s, seat)
        else:
            seat, action = random_move(s, rng)
        s = powergrid.apply(s, seat, action)
        check_invariants(s)
        for other in range(players):
            if other not in powergrid.to_act(s):
                assert powergrid.legal(s, other) == []
    assert s.phase == "finished"
    assert s.result is not None
    assert sorted(r[3] for r in s.result)[0] == 1
