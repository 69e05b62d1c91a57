"""Practice positions (``powergrid.practice``): nothing hidden from the seat reaches them.

The leak test changes every part of a position the seat cannot know (the unseen cards' places
and the plants removed face down, the seed, the other players' money, their sealed bids) and
finds the same practice position; the places it keeps are checked against what the public views
of the game so far tell (the top card before any draw, the Step 3 card and the plants put under
the deck in phase 5, tracked from the spectator views alone). The seat sees the same game in the
practice position as in the original, and it plays on to the end.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import powergrid
from powergrid.plants import STEP3
from powergrid.practice import practice_position, top_plant, unseen_places
from powergrid.state import Auction, State
from tests.engine.helpers import random_move
from tests.engine.invariants import check_cheap
from tests.engine.test_takeback import GAMES


def _numbers(view: dict[str, Any], key: str) -> list[int]:
    return [p.get("id", p.get("number")) for p in view[key] if "step3" not in p]


def _market(view: dict[str, Any]) -> list[int]:
    m = view["plant_market"]
    return [p.get("id", p.get("number", STEP3)) for p in m["current"] + m["future"]]


def positions(game: tuple[str, int, str, str, int], every: int = 9):
    """Positions of a game played at random, each with what the spectator views so far say of
    the deck's bottom: the plants put under it in phase 5, in order (empty once the Step 3 card
    has been drawn and the deck shuffled)."""
    map_, n, variant, deck, seed = game
    s = powergrid.new_game(map=map_, players=n, seed=seed, variant=variant, plant_deck=deck)
    rng = random.Random(seed + 9)
    under: list[int] = []
    i = 0
    while s.phase != "finished":
        if i % every == 0:
            yield s, list(under)
        i += 1
        seat, action = random_move(s, rng)
        before = powergrid.view(s)
        s = powergrid.apply(s, seat, action)
        after = powergrid.view(s)
        gone = set(_market(before)) - set(_market(after)) - set(_numbers(after, "removed"))
        gone -= {p.get("id", p["number"]) for q in after["players"] for p in q["plants"]}
        if before["phase"] == "bureaucracy" and after["round"] != before["round"]:
            under += sorted(gone)  # the turnover puts one plant under the deck
        step3_drawn = STEP3 in _numbers(after, "removed") or after["step3_card_in_market"]
        if step3_drawn and variant != "first_game":
            under = []  # the Step 3 card's shuffle: nothing of the order is known


def hidden_from(s: State, seat: int, rng: random.Random) -> State:
    """``s`` with what ``seat`` cannot know changed: the unseen cards and the face-down removals
    dealt again, another seed, other money for the others, the others' sealed bids."""
    places = unseen_places(s)
    pool = [s.deck[i] for i in places] + list(s.setup_removed)
    rng.shuffle(pool)
    k = len(s.setup_removed)
    deck = list(s.deck)
    for place, card in zip(places, pool[k:], strict=True):
        deck[place] = card
    players = tuple(
        p if i == seat else p.replace(money=rng.randint(0, 300)) for i, p in enumerate(s.players)
    )
    out = s.replace(
        deck=tuple(deck),
        setup_removed=tuple(pool[:k]),
        seed=rng.randrange(1 << 40),
        players=players,
    )
    auc = s.auction
    if auc is not None and auc.sealed is not None:
        sealed = tuple(
            rng.choice([0, auc.bid + rng.randint(1, 20)])
            if b != -1 and i not in (seat, auc.opener) and i in auc.bidders
            else b
            for i, b in enumerate(auc.sealed)
        )
        out = out.replace(
            auction=Auction(auc.plant, auc.bid, auc.high, auc.bidders, auc.turn, auc.opener, sealed)
        )
    return out


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-{g[2]}-{g[3]}")
def test_nothing_hidden_from_the_seat_reaches_its_practice_position(game):
    rng = random.Random(game[-1] + 77)
    checked = 0
    for s, under in positions(game):
        # What the practice keeps of the deck is public: the top card before any draw, the
        # Step 3 card and the plants put under it, in the order the views showed them going.
        kept = [i for i in range(len(s.deck)) if i not in set(unseen_places(s))]
        if STEP3 in s.deck:
            i3 = s.deck.index(STEP3)
            assert list(s.deck[i3 + 1 :]) == under
            assert set(kept) - {0} == set(range(i3, len(s.deck))) - {0}
            if 0 in kept and i3 > 0:
                assert not any(p.plants for p in s.players)
                assert s.deck[0] == top_plant(s)
        elif game[2] == "first_game":
            assert list(s.deck) == under
        else:
            assert kept == []
        for seat in range(s.n):
            money = [rng.randint(0, 200) for _ in range(s.n)]
            mine = practice_position(s, seat, seed=1234, money=money)
            for _ in range(2):
                other = hidden_from(s, seat, rng)
                assert practice_position(other, seat, seed=1234, money=money) == mine
            checked += 1
    assert checked > 40


def test_the_leak_test_catches_a_practice_that_copies_the_deck():
    # The same test on a practice that kept the deck as it was (a leak) fails: the hidden
    # change shows.
    s = next(p for p, _ in positions(GAMES[0], every=40) if p.round > 2)
    rng = random.Random(1)
    other = hidden_from(s, 0, rng)
    assert other.deck != s.deck
    leaky = practice_position(s, 0, seed=1, money=[50] * s.n).replace(deck=s.deck)
    assert practice_position(other, 0, seed=1, money=[50] * s.n) != leaky


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-{g[2]}-{g[3]}")
def test_the_seat_sees_the_same_game_and_it_plays_to_the_end(game):
    rng = random.Random(game[-1] + 5)
    for s, _under in positions(game, every=25):
        seat = rng.randrange(s.n)
        p = practice_position(s, seat, seed=f"practice-{game[-1]}", money=[60] * s.n)
        sealed = s.auction is not None and s.auction.sealed is not None
        if not sealed:
            assert powergrid.view(p, seat) == powergrid.view(s, seat)
        assert p.players[seat].money == s.players[seat].money
        assert all(q.money == 60 for i, q in enumerate(p.players) if i != seat)
        assert sorted(p.deck + p.setup_removed) == sorted(s.deck + s.setup_removed)
        check_cheap(p)
        for _ in range(3000):
            if p.phase == "finished":
                break
            who, action = random_move(p, rng)
            p = powergrid.apply(p, who, action)
            check_cheap(p)
        assert p.phase == "finished"


def test_a_finished_game_has_no_position_to_practise_from():
    s = powergrid.new_game(map="germany", players=2, seed=1).replace(phase="finished")
    with pytest.raises(ValueError, match="finished"):
        practice_position(s, 0, seed=1, money=[1, 2])
