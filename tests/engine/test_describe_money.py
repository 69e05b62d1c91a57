"""Every payment of the game is in the move log's entries (``powergrid.describe``): a player's
money follows from them alone. Checked after every move of games played at random, over every
deck and variant: ``public_money`` of the entries so far is each player's money in the state.

(It found the price of a plant put up when nobody else could bid: the entry said the bid sent,
the engine charges the plant's number, the minimum.)
"""

from __future__ import annotations

import random

import pytest

import powergrid
from powergrid.describe import move_entries, public_money
from tests.engine.helpers import random_move
from tests.engine.test_takeback import GAMES


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-{g[2]}-{g[3]}")
def test_the_entries_account_for_every_players_money(game):
    map_, n, variant, deck, seed = game
    s = powergrid.new_game(map=map_, players=n, seed=seed, variant=variant, plant_deck=deck)
    rng = random.Random(seed + 50)
    entries = []
    kinds = set()
    while s.phase != "finished":
        seat, action = random_move(s, rng)
        after = powergrid.apply(s, seat, action)
        made = move_entries(action, seat, powergrid.view(s), powergrid.view(after))
        entries += made
        kinds |= {e["kind"] for e in made}
        assert public_money(n, entries) == [p.money for p in after.players], (s.round, action)
        s = after
    assert {"sale", "buy_resources", "build", "power"} <= kinds


def test_a_plant_bought_with_nobody_left_to_bid_costs_its_number_in_the_log():
    s = powergrid.new_game(map="germany", players=2, seed=4)
    a, b = s.order
    s = powergrid.apply(s, a, {"type": "choose_plant", "plant": 3, "bid": 3})
    s = powergrid.apply(s, b, {"type": "pass_bid"})
    plant = min(s.market[:4])
    before = powergrid.view(s)
    t = powergrid.apply(s, b, {"type": "choose_plant", "plant": plant, "bid": plant + 6})
    sale = [
        e
        for e in move_entries(
            {"type": "choose_plant", "plant": plant, "bid": plant + 6}, b, before, powergrid.view(t)
        )
        if e["kind"] == "sale"
    ]
    assert sale[0]["params"]["price"] == plant
    assert t.players[b].money == s.players[b].money - plant
