"""Setup: areas, the deck, the markets, money, the first player order; determinism."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.maps import load_map
from powergrid.plants import STEP3
from powergrid.tables import PLAYER_COUNTS
from tests.engine.helpers import check_invariants


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deck_13_on_top_step3_at_the_bottom_and_removals_hidden(players):
    s = powergrid.new_game(players=players, seed=11)
    assert s.market == (3, 4, 5, 6, 7, 8, 9, 10)
    assert s.deck[0] == 13
    assert s.deck[-1] == STEP3
    assert len(s.setup_removed) == PLAYER_COUNTS[players].removed_at_setup
    assert len(s.deck) == 42 + 1 - 8 - len(s.setup_removed)
    assert all(p.money == 50 for p in s.players)
    assert sorted(s.order) == list(range(players))
    check_invariants(s)


@pytest.mark.parametrize(("map_slug", "players"), [("germany", 3), ("germany", 5), ("usa", 4)])
def test_random_areas_are_one_connected_group_of_the_right_size(map_slug, players):
    gmap = load_map(map_slug)
    for seed in range(10):
        s = powergrid.new_game(map=map_slug, players=players, seed=seed)
        assert len(s.areas) == PLAYER_COUNTS[players].areas
        assert gmap.areas_connected(s.areas)


def test_same_setup_same_game_and_different_seeds_differ():
    a = powergrid.new_game(seed="abc")
    assert a == powergrid.new_game(seed="abc")
    assert powergrid.to_json(a) == powergrid.to_json(powergrid.new_game(seed="abc"))
    assert any(powergrid.new_game(seed=i).deck != a.deck for i in range(5))


@pytest.mark.parametrize("seed", range(40))
def test_a_game_set_up_again_with_the_areas_it_drew_is_the_same_game(seed):
    """Replays and fixtures name the areas a random draw chose: they must get the same deck."""
    drawn = powergrid.new_game(map="usa", players=5, seed=seed)
    again = powergrid.new_game(map="usa", players=5, seed=seed, areas=list(drawn.areas))
    assert again == drawn
    assert powergrid.to_json(again) == powergrid.to_json(drawn)


@pytest.mark.parametrize(
    "areas",
    [
        ["red", "cyan", "green"],  # too few for 4 players
        ["red", "cyan", "green", "atlantis"],  # unknown
        ["red", "red", "cyan", "green"],  # twice
        ["green", "brown", "purple", "cyan"],  # not connected (green-brown vs purple-cyan)
        "red",  # not a list
    ],
)
def test_bad_areas_are_refused(areas):
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.new_game(players=4, seed=1, areas=areas)
    assert err.value.code == "invalid_field"


def test_given_areas_are_used():
    s = powergrid.new_game(players=4, seed=1, areas=["yellow", "red", "cyan", "green"])
    assert s.areas == ("cyan", "green", "red", "yellow")
    assert "essen" in s.board.index
    assert "berlin" not in s.board.index


@pytest.mark.parametrize(
    "kwargs", [{"players": 7}, {"players": True}, {"map": "atlantis"}, {"variant": "fast"}]
)
def test_bad_setup_is_refused(kwargs):
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.new_game(seed=1, **kwargs)
    assert err.value.code == "invalid_field"
