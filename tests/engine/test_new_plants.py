"""The New Power Plants deck (seed 001, second half) and its variants 1 and 2.

The seed describes the expansion's rules, not each card: what it says of the cards is encoded
here (``SEED_*``) and both ``powergrid/data/plants_new.json`` (the project's data) and
``shared/reference/plants_new.json`` (low confidence) are checked against it card by card; where
they disagree the seed wins, and the known disagreements are listed (``REFERENCE_GAPS``).
Then the set-ups of variants 1 and 2, the mixed deck's "first card of a number leaves" rule, the
minimum bid and market order by number, and a soak of bot games with invariants and replay.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import powergrid
from powergrid import bots
from powergrid.phases.bureaucracy import start_round
from powergrid.plant_market import PlantMarketOps
from powergrid.plants import (
    BASE_PLANTS,
    FUELS,
    NEW_ID_BASE,
    NEW_PLANTS,
    NUMBER,
    PLANTS,
    RANK,
    STEP3,
    TWIN,
)
from powergrid.state import BUREAUCRACY, MIXED_DECK, NEW_DECK
from powergrid.tables import PLAYER_COUNTS
from tests.engine.test_soak import soak_game

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "plants_new.json"

# -- what the seed says -----------------------------------------------------------------------

#: "発電所カード 46 枚 (52、54、57、60 番の発電所はバリエーション 3 のゲームでのみ使用)".
SEED_CARDS = 46
SEED_VARIANT3_ONLY = (52, 54, 57, 60)
#: Variant 1: "01～08 番の発電所をルールに従って発電所市場に置きます", 11 on top.
SEED_STARTING = (1, 2, 3, 4, 5, 6, 7, 8)
SEED_TOP = 11
#: Variant 2: 01-08 of both decks are 14 cards; "01、02 番の発電所" exist once (new deck only).
SEED_SMALL_OF_BOTH = 14
SEED_NEW_ONLY = (1, 2)
#: Variant 3: "46 番と 50 番の発電所が 2 つずつ": the new deck has a 46 and a 50 (the "+" ones).
SEED_TWINS_IN_VARIANT3 = (46, 50)
#: The base rules' fuels (the seed names no new fuel for the expansion): eco and fusion burn none.
SEED_FUELS = {"coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion"}
SEED_NO_FUEL = {"ecological", "fusion"}
#: The base deck as the seed describes it: 42 plants (43 cards with Step 3), 03-10 start, 13 on
#: top; its 14 burns 2 garbage for 2 cities; its 5 is a hybrid burning 2.
SEED_BASE_PLANTS = 42

#: Where the reference file disagrees with the seed (the seed wins): the four variant-3 plants
#: are missing, so variant 3 cannot be played from it.
REFERENCE_GAPS = ["missing plants 52, 54, 57, 60 (the seed counts 46 cards)"]


def seed_disagreements(cards: dict[int, tuple[str, int, int]]) -> list[str]:
    """What in a deck (number -> (fuel, burns, powers)) contradicts the seed, in words."""
    out: list[str] = []
    missing = [n for n in SEED_VARIANT3_ONLY if n not in cards]
    if missing:
        out.append(
            f"missing plants {', '.join(map(str, missing))} (the seed counts {SEED_CARDS} cards)"
        )
    if len(cards) + len(missing) != SEED_CARDS:
        out.append(f"{len(cards)} plants, the seed counts {SEED_CARDS}")
    for n in (*SEED_STARTING, SEED_TOP, *SEED_TWINS_IN_VARIANT3):
        if n not in cards:
            out.append(f"plant {n} missing (the seed's variants use it)")
    small = [n for n in cards if n in SEED_STARTING]
    base_small = [n for n in BASE_PLANTS if NUMBER[n] in SEED_STARTING]
    if len(small) + len(base_small) != SEED_SMALL_OF_BOTH:
        out.append(f"01-08 of both decks are {len(small) + len(base_small)} cards, not 14")
    for number, (fuel, burns, powers) in sorted(cards.items()):
        if fuel not in SEED_FUELS:
            out.append(f"plant {number}: fuel {fuel!r} is none of the seed's")
        if (burns == 0) != (fuel in SEED_NO_FUEL):
            out.append(f"plant {number}: {fuel} burning {burns}")
        if powers < 1:
            out.append(f"plant {number}: powers {powers} cities")
    return out


def _reference() -> dict[int, tuple[str, int, int]]:
    raw = json.loads(REFERENCE.read_text(encoding="utf-8"))
    numbers = [int(p["number"]) for p in raw["plants"]]
    assert len(numbers) == len(set(numbers)), "a number twice in the reference"
    return {int(p["number"]): (p["fuel"], int(p["cost"]), int(p["cities"])) for p in raw["plants"]}


def _ours() -> dict[int, tuple[str, int, int]]:
    return {p.number: (p.fuel, p.burns, p.powers) for p in NEW_PLANTS.values()}


def test_the_base_deck_agrees_with_the_seed() -> None:
    assert len(BASE_PLANTS) == SEED_BASE_PLANTS
    assert (BASE_PLANTS[14].fuel, BASE_PLANTS[14].burns, BASE_PLANTS[14].powers) == (
        "garbage",
        2,
        2,
    )
    assert (BASE_PLANTS[5].fuel, BASE_PLANTS[5].burns) == ("hybrid", 2)
    assert not set(SEED_NEW_ONLY) & {p.number for p in BASE_PLANTS.values()}


def test_the_new_deck_checked_card_by_card_against_the_seed() -> None:
    assert seed_disagreements(_ours()) == REFERENCE_GAPS
    assert {p.fuel for p in NEW_PLANTS.values()} <= set(FUELS)


@pytest.mark.skipif(not REFERENCE.is_file(), reason="the shared reference is not checked out")
def test_the_reference_file_against_the_seed_and_our_data() -> None:
    ref = _reference()
    assert seed_disagreements(ref) == REFERENCE_GAPS
    # Every card the reference gives is ours, unchanged (its cost is our burns, cities powers).
    assert ref == _ours()


def test_ids_ranks_and_twins() -> None:
    assert all(i == p.number for i, p in BASE_PLANTS.items())
    assert all(i == NEW_ID_BASE + p.number for i, p in NEW_PLANTS.items())
    assert PLANTS[105].to_dict() == {**NEW_PLANTS[105].to_dict(), "id": 105, "deck": "new"}
    assert "id" not in PLANTS[5].to_dict()
    # A number's new card counts as the higher; otherwise numbers decide.
    assert RANK[46] < RANK[146] < RANK[50] < RANK[150] < RANK[STEP3]
    assert RANK[101] < RANK[3] < RANK[103]
    assert TWIN[146] == 46
    assert TWIN[46] == 146
    assert 101 not in TWIN
    assert 17 not in TWIN
    assert TWIN[19] == 119


# -- variant 1: the new deck alone -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_variant1_setup(players: int) -> None:
    s = powergrid.new_game(map="germany", players=players, seed=4, plant_deck=NEW_DECK)
    assert s.market == (101, 102, 103, 104, 105, 106, 107, 108)
    assert s.deck[0] == 111
    assert s.deck[-1] == STEP3
    k = PLAYER_COUNTS[players].removed_at_setup
    assert len(s.setup_removed) == k
    assert set(s.deck[1:-1]) | set(s.setup_removed) == set(NEW_PLANTS) - {*s.market, 111}
    assert s.removed == ()
    assert powergrid.new_game(map="germany", players=players, seed=4, plant_deck="new") == s


def test_variant1_on_the_france_map_plays_without_its_11() -> None:
    s = powergrid.new_game(map="france", players=4, seed=2, plant_deck=NEW_DECK)
    assert s.removed == (111,)
    assert 111 not in s.deck
    assert s.deck[0] != 111
    assert 13 not in s.removed  # the base deck's France rule has no card to take here


def test_minimum_bid_is_the_number_not_the_id() -> None:
    s = powergrid.new_game(map="germany", players=3, seed=1, plant_deck=NEW_DECK)
    first = s.order[0]
    entry = powergrid.legal(s, first)[0]
    assert entry["plants"][0] == {"number": 1, "id": 101, "min_bid": 1}
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, first, {"type": "choose_plant", "plant": 101, "bid": 0})
    assert err.value.code == "bid_too_low"
    assert err.value.details == {"min": 1}
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, first, {"type": "choose_plant", "plant": 1})
    assert err.value.code == "unknown_plant"
    t = powergrid.apply(s, first, {"type": "choose_plant", "plant": 101})
    assert t.auction is not None
    assert t.auction.bid == 1


def test_view_names_the_deck_and_the_cards_ids() -> None:
    s = powergrid.new_game(map="germany", players=3, seed=1, plant_deck=NEW_DECK)
    v = powergrid.view(s, None)
    assert v["plant_deck"] == "new"
    assert v["plant_market"]["current"][0] == {
        "number": 1,
        "fuel": "coal",
        "burns": 3,
        "powers": 1,
        "id": 101,
        "deck": "new",
    }
    base = powergrid.new_game(map="germany", players=3, seed=1)
    assert "plant_deck" not in powergrid.view(base, None)
    assert "plant_deck" not in json.loads(powergrid.to_json(base))
    assert powergrid.from_json(powergrid.to_json(s)) == s


def test_an_unknown_deck_is_refused() -> None:
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.new_game(map="germany", players=3, seed=1, plant_deck="big")
    assert err.value.code == "invalid_field"
    assert err.value.details == {"known": ["base", "new", "mixed"]}


# -- variant 2: both decks ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_variant2_setup(players: int) -> None:
    s = powergrid.new_game(map="usa", players=players, seed=9, plant_deck=MIXED_DECK)
    assert [NUMBER[i] for i in s.market] == list(SEED_STARTING)
    assert {101, 102} <= set(s.market)
    assert s.setup_removed == ()
    assert s.deck[-1] == STEP3
    removed = Counter(NUMBER[i] for i in s.removed)
    # Out face up: the base 17 and 18, the first card of each of 03-08, and the setup pairs.
    assert {17, 18} <= set(s.removed)
    assert all(removed[n] == 1 for n in range(3, 9))
    pairs = [n for n in removed if n > 8 and n not in (17, 18)]
    assert len(pairs) == PLAYER_COUNTS[players].removed_at_setup
    assert all(removed[n] == 2 for n in pairs)
    assert sorted(s.market, key=RANK.__getitem__) == list(s.market)


def test_variant2_the_first_card_of_a_number_leaves_the_game() -> None:
    s = powergrid.new_game(map="germany", players=4, seed=3, plant_deck=MIXED_DECK)
    # Base 20 on top, its twin (new 20) further down: 20 leaves and the next card comes, base
    # 33, whose twin is out of the game already.
    rest = [i for i in s.deck if i not in (20, 120, 33, 133, STEP3)]
    s = s.replace(deck=(20, 33, *rest, 120, STEP3), removed=(133,), phase=BUREAUCRACY)
    ops = PlantMarketOps(s)
    ops.draw()
    assert 20 in ops.removed
    assert 33 in ops.market
    # Later the twin is the second of its number: it is played.
    ops.deck = [120, STEP3]
    ops.draw()
    assert 120 in ops.market
    assert 120 not in ops.removed
    # In the base deck a card is never set aside for its twin.
    base = powergrid.new_game(map="germany", players=4, seed=3)
    rest = [i for i in base.deck if i not in (20, 33, STEP3)]
    ops = PlantMarketOps(base.replace(deck=(20, 33, *rest, STEP3), phase=BUREAUCRACY))
    ops.draw()
    assert 20 in ops.market
    assert 20 not in ops.removed


def test_a_new_card_outranks_its_twin_in_player_order() -> None:
    """Phase 1 breaks a tie in cities by the highest plant: new 46 over base 46 (variant 3's
    "+" rule, the one order the engine keeps for twins)."""
    s = powergrid.new_game(map="germany", players=2, seed=3, plant_deck=MIXED_DECK)
    players = (s.players[0].replace(plants=(146,)), s.players[1].replace(plants=(46,)))
    t = s.replace(players=players, order=(1, 0)).copy()
    start_round(t)
    assert t.order == (0, 1)
    t = s.replace(players=players[::-1], order=(0, 1)).copy()
    start_round(t)
    assert t.order == (1, 0)


# -- soak: bot games with the new decks ---------------------------------------------------------

MAPS = ("germany", "usa", "france", "italy")


@pytest.mark.parametrize("plant_deck", [NEW_DECK, MIXED_DECK])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_soak_new_decks(plant_deck: str, players: int) -> None:
    """Heuristic, random and mixed bots, every map in turn: invariants after each action, the
    game replayed from its moves to the identical state and JSON (``soak_game``)."""
    rounds = []
    for i, kind in enumerate(("heuristic", "random", "mixed", "heuristic")):
        seed = 7000 + 10 * players + i
        state, _ = soak_game(
            MAPS[(players + i) % len(MAPS)],
            players,
            seed,
            kind,
            full=(i == 0),
            plant_deck=plant_deck,
        )
        assert state.plant_deck == plant_deck
        assert any(p > NEW_ID_BASE for q in state.players for p in q.plants)
        rounds.append(state.round)
    assert min(rounds) >= 2


def test_bots_games_differ_between_decks() -> None:
    """The new decks change the game (the soak is not replaying the base deck)."""
    logs = {
        deck: bots.play_game("germany", 4, 5, plant_deck=deck)[1][:12]
        for deck in ("base", NEW_DECK, MIXED_DECK)
    }
    assert logs["base"] != logs[NEW_DECK] != logs[MIXED_DECK]
