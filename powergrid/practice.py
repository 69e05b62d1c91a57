"""Practice positions: a running game's position as one seat knows it, for a practice game.

A player may practise from the current position of a game they play, against the bots. What
they do not know must not come with them, or the practice game would tell them (its end shows
every player's money; its draws show the deck). :func:`practice_position` keeps what the seat
may see and replaces the rest:

* the deck: the cards whose place no player can know (:func:`unseen_places`) are shuffled
  again with the practice game's own seed, the plants removed face down at setup among them;
  what is public stays where it is (the top card while nothing has been drawn yet, the Step 3
  card and the plants put under the deck in phase 5, in their order);
* the seed: the practice game's own (the Step 3 shuffle follows it);
* every other player's money: the figure given, which the server takes from the public move
  log (:func:`powergrid.describe.public_money`: every payment in Power Grid is made in the
  open, so this is the account a player could keep, never the hidden figure);
* sealed bids given by others in an auction under way, passes too (a pass in a sealed auction is
  a sealed answer, :func:`powergrid.actions.sealed_move`): not given yet (they bid again). The
  server goes further and makes no practice game during a sealed auction with another bidder
  than the seat and the opener (``games.services.practice``, ``why: sealed_auction``): the
  practice game's bots would answer again, in the player's sight, from the same position.

Everything else is public and kept: the map, the markets, the players' plants, tokens and
cities, the turn. The result depends only on what ``seat`` may see, the money figures and the
seed: ``tests/engine/test_practice.py`` changes each hidden part of a position and finds the
same practice position.

>>> import powergrid
>>> s = powergrid.new_game(map="germany", players=3, seed=1)
>>> me = s.order[0]
>>> p = practice_position(s, me, seed=99, money=[40, 41, 42])
>>> p.seed, p.players[me].money == s.players[me].money, p.deck[0] == s.deck[0]
(99, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from powergrid.map_rules import rules_for
from powergrid.plants import NEW_PLANTS, STEP3
from powergrid.state import BASE_DECK, FINISHED, NEW_DECK, Auction, State
from powergrid.tables import NEW_TOP_NUMBER


def top_plant(s: State) -> int | None:
    """The plant the set-up puts on top of the deck, known to all (None: the mixed deck has
    none, nor the new deck on a map that takes its top card out)."""
    rules = rules_for(s.map)
    if s.plant_deck == BASE_DECK:
        return rules.top_plant
    if s.plant_deck == NEW_DECK and NEW_TOP_NUMBER not in rules.new_deck_removed:
        return next(i for i, p in NEW_PLANTS.items() if p.number == NEW_TOP_NUMBER)
    return None


def unseen_places(s: State) -> list[int]:
    """The places in ``s.deck`` (indexes) whose card no player can know.

    Before the Step 3 card is drawn, the deck is the shuffled cards, then the Step 3 card, then
    the plants put under it in phase 5 (public, in the order they went): the shuffled part is
    unknown, except its top card while no plant has been drawn (no player owns one yet: the
    first sale draws), which is the set-up's top plant. Once the Step 3 card is drawn the deck
    is shuffled and nothing of its order is known; in the first game (no shuffle) the deck then
    holds only plants put under it, all known."""
    deck = s.deck
    if STEP3 in deck:
        end = deck.index(STEP3)
        start = 0
        if end and not any(p.plants for p in s.players) and deck[0] == top_plant(s):
            start = 1
        return list(range(start, end))
    if s.first_game:
        return []
    return list(range(len(deck)))


def practice_position(state: State, seat: int, *, seed: int | str, money: Sequence[int]) -> State:
    """``state`` as ``seat`` knows it, to start a practice game from (see the module):
    ``seed`` is the practice game's, ``money`` per seat the figure for each other player (the
    seat's own money is its own)."""
    if state.phase == FINISHED:
        raise ValueError("a finished game has no position to practise from")
    if len(money) != state.n:
        raise ValueError("one money figure per seat")
    s = state.copy()
    places = unseen_places(state)
    # Sorted first: the new order must not depend on the order the cards were in.
    pool = sorted([state.deck[i] for i in places] + list(state.setup_removed))
    random.Random(f"{seed}:practice").shuffle(pool)
    k = len(state.setup_removed)
    s.setup_removed = tuple(pool[:k])
    deck = list(state.deck)
    for place, card in zip(places, pool[k:], strict=True):
        deck[place] = card
    s.deck = tuple(deck)
    s.seed = seed
    s.players = tuple(
        p if i == seat else p.replace(money=int(money[i])) for i, p in enumerate(state.players)
    )
    auc = state.auction
    if auc is not None and auc.sealed is not None:
        # The others' sealed bids (passes too) are hidden: in the practice game they bid anew.
        sealed = tuple(
            b if i in (seat, auc.opener) or i not in auc.bidders else -1
            for i, b in enumerate(auc.sealed)
        )
        s.auction = Auction(auc.plant, auc.bid, auc.high, auc.bidders, auc.turn, auc.opener, sealed)
    return s
