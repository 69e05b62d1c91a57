"""Each board by its own rules (shared/RULES.md, "Variants named in the seeds"; seed 002), and
playing areas whose cities can all be reached, so that every game can end."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.maps import available_maps, load_map
from powergrid.network import board_for, cities_connected
from powergrid.plants import STEP3
from powergrid.setup import legal_area_sets
from powergrid.tables import PLAYER_COUNTS, market_prices


def _prices(s: powergrid.State) -> dict[str, list[int]]:
    return powergrid.view(s)["resource_market"]


def test_france_uranium_starts_at_5_with_a_token_on_each_space_from_5_to_16():
    s = powergrid.new_game(map="france", players=4, seed=1)
    assert _prices(s)["uranium"] == [5, 6, 7, 8, 10, 12, 14, 16]
    assert (
        _prices(s)["coal"]
        == powergrid.view(powergrid.new_game(map="germany", players=4, seed=1))["resource_market"][
            "coal"
        ]
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_france_puts_plant_11_on_top_and_shuffles_13_with_the_rest(players):
    """Seed 002, set-up and footnote *1: on France, 11 is set aside (instead of 13) and put on top
    after the face-down removal; 13 is one of "the remaining cards", so it is in the deck or among
    the plants removed face down, and never out of the game by rule."""
    s = powergrid.new_game(map="france", players=players, seed=players)
    assert s.deck[0] == 11
    assert s.deck[-1] == STEP3
    assert s.removed == ()
    assert (13 in s.deck) != (13 in s.setup_removed)
    assert 11 not in s.setup_removed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_france_13_is_sometimes_dealt_and_sometimes_removed_face_down(players):
    """Over many shuffles 13 lands in both places, about as often as any other ordinary card: the
    table removes 8 (2 players) or 4 (4 players) of the 33 cards shuffled."""
    removed = dealt = 0
    for seed in range(400):
        s = powergrid.new_game(map="france", players=players, seed=seed)
        assert s.removed == ()
        if 13 in s.setup_removed:
            removed += 1
        else:
            assert 13 in s.deck[1:-1]
            dealt += 1
    k = PLAYER_COUNTS[players].removed_at_setup
    expected = 400 * k / 33  # 13 is one of the 33 cards shuffled (42 minus 3-10 and 11)
    assert dealt > 0
    assert abs(removed - expected) < 4 * (expected**0.5) + 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_first_edition_france_game_still_plays_without_13(players):
    """A game set up before the correction keeps its rules: its replay must give its snapshot."""
    s = powergrid.new_game(map="france", players=players, seed=players, edition=1)
    assert s.deck[0] == 11
    assert 13 not in s.deck
    assert 13 not in s.setup_removed
    assert s.removed == (13,)
    assert s.edition == 1


def test_the_editions_differ_only_on_france_s_deck():
    """Every other map (and France's other deck variants) sets up alike in both editions."""
    for slug in available_maps():
        for seed in range(5):
            one = powergrid.new_game(map=slug, players=4, seed=seed, edition=1)
            two = powergrid.new_game(map=slug, players=4, seed=seed, edition=2)
            same = (one.deck, one.setup_removed, one.removed, one.order, one.areas)
            if slug == "france":
                assert (two.deck, two.setup_removed) != (one.deck, one.setup_removed)
            else:
                assert same == (two.deck, two.setup_removed, two.removed, two.order, two.areas)


def test_france_needs_the_paris_area():
    gmap = load_map("france")
    assert gmap.required_areas == {"blue"}
    paris = [c for c in gmap.cities.values() if c.slug.startswith("paris")]
    assert len(paris) == 3
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.new_game(map="france", players=3, seed=1, areas=["green", "purple", "red"])
    assert "must be in play" in err.value.message


def test_italy_coal_oil_and_garbage_start_at_3_4_and_5():
    s = powergrid.new_game(map="italy", players=3, seed=1, areas=["blue", "green", "yellow"])
    p = _prices(s)
    assert p["coal"] == [3] * 3 + [4] * 3 + [5] * 3 + [6] * 3 + [7] * 3 + [8] * 3
    assert p["oil"] == [4] * 3 + [5] * 3 + [6] * 3 + [7] * 3 + [8] * 3
    assert p["garbage"] == [5] * 3 + [6] * 3 + [7] * 3 + [8] * 3
    assert p["uranium"] == [14, 16]
    assert s.deck[0] == 13


def test_the_base_maps_keep_the_base_set_up():
    for slug in ("germany", "usa"):
        s = powergrid.new_game(map=slug, players=4, seed=3)
        assert s.deck[0] == 13
        assert s.removed == ()
        assert s.resources == (24, 18, 6, 2)
        assert market_prices(3, s.resources[3]) == [14, 16]


def test_the_supply_holds_what_the_market_does_not():
    """Every token is somewhere: Italy's smaller markets leave more in the supply."""
    s = powergrid.new_game(map="italy", players=4, seed=2)
    assert s.supply() == (24 - 18, 24 - 15, 24 - 12, 12 - 2)


@pytest.mark.parametrize("slug", available_maps())
@pytest.mark.parametrize("players", sorted(PLAYER_COUNTS))
def test_every_legal_area_set_can_reach_the_end_of_the_game(slug, players):
    """Every set the engine offers (and so every random draw) has its cities joined through cities
    in play, and at least as many as the game-end count: a player can connect that many."""
    gmap = load_map(slug)
    table = PLAYER_COUNTS[players]
    sets = legal_area_sets(gmap, table.areas)
    assert sets
    for areas in sets:
        board = board_for(slug, areas)
        assert cities_connected(slug, areas), areas
        assert len(board.cities) >= table.end_cities, areas
        assert all(d < 1 << 40 for row in board.dist for d in row)


def test_italy_blue_green_red_is_refused_because_livorno_cannot_be_reached():
    """Seed 1163 drew these once and the game never ended: the areas touch, the cities do not."""
    gmap = load_map("italy")
    assert gmap.areas_connected(("blue", "green", "red"))
    assert not cities_connected("italy", ("blue", "green", "red"))
    assert ("blue", "green", "red") not in legal_area_sets(gmap, 3)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.new_game(map="italy", players=2, seed=1163, areas=["blue", "green", "red"])
    assert err.value.code == "areas_not_connected"
    drawn = powergrid.new_game(map="italy", players=2, seed=1163)
    assert drawn.areas != ("blue", "green", "red")


def test_a_city_that_no_connection_reaches_is_refused_with_its_own_code():
    s = powergrid.new_game(map="italy", players=2, seed=5, areas=["blue", "green", "yellow"])
    cut = board_for("italy", ("blue", "green", "red"))
    far = next(c for c in cut.cities if cut.dist[0][cut.index[c]] >= 1 << 40)
    near = cut.cities[0]
    players = list(s.players)
    players[0] = players[0].replace(cities=(near,), money=500)
    s = s.replace(
        areas=("blue", "green", "red"), board=cut, players=tuple(players), cities={near: (0,)}
    )
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.quote_build(s, 0, [far])
    assert err.value.code == "city_unreachable"
