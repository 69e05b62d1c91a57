"""The plant market and deck: drawing, the city-count removal rule, and the Step 3 card.

Used inside one ``apply``: :class:`PlantMarketOps` takes the market, deck and removed pile of a
state copy into lists, performs the rules' operations, and writes tuples back.

The Step 3 card, when drawn:
  * in phase 2 (auction, also through a discard or the no-sale replacement) it joins the market
    as its highest card, the rest of the deck is shuffled, and at the end of phase 2 it and the
    lowest plant are removed (no replacement); step 3 begins with phase 3;
  * in phase 4 (a replacement after a removal, or the step-2 replacement) it and the lowest plant
    are removed at once (no replacement), the deck is shuffled, step 3 begins with phase 5;
  * in phase 5 (the plant market's turnover) the same, and step 3 begins at once.
In the first-game variant (step 1 only) the card is set aside and another plant drawn.

The market is kept in ``RANK`` order (the plants' numbers; a number's new card above its base
twin), and the city-count rule reads the plants' numbers, not their ids. With the mixed deck
(New Power Plants, variant 2) a drawn card whose twin is still in the deck is the first of its
number: it leaves the game (face up) and the next card is drawn.
"""

from __future__ import annotations

import bisect
import random

from powergrid.plants import NUMBER, RANK, STEP3, TWIN
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, MIXED_DECK, State


def step3_shuffle(seed: int | str, deck: list[int]) -> None:
    """Shuffle the deck when the Step 3 card appears, deterministically from the game's seed."""
    random.Random(f"{seed}:step3").shuffle(deck)


class PlantMarketOps:
    __slots__ = ("deck", "market", "phase", "removed", "s")

    def __init__(self, s: State, phase: str | None = None) -> None:
        self.s = s
        self.market = list(s.market)
        self.deck = list(s.deck)
        self.removed = list(s.removed)
        self.phase = s.phase if phase is None else phase

    def commit(self) -> None:
        s = self.s
        s.market = tuple(self.market)
        s.deck = tuple(self.deck)
        s.removed = tuple(self.removed)

    def remove_lowest(self) -> None:
        """Remove the lowest plant of the market from the game (no replacement)."""
        if self.market and self.market[0] != STEP3:
            self.removed.append(self.market.pop(0))

    def draw(self) -> None:
        """Draw one card from the deck into the market (nothing when the deck is empty)."""
        deck = self.deck
        if not deck:
            return
        card = deck.pop(0)
        s = self.s
        if s.plant_deck == MIXED_DECK and TWIN.get(card, -1) in deck:
            self.removed.append(card)  # the first of its number: out of the game
            self.draw()
            return
        if card != STEP3:
            bisect.insort(self.market, card, key=RANK.__getitem__)
            return
        if s.first_game:
            self.removed.append(STEP3)
            self.draw()
            return
        step3_shuffle(s.seed, deck)
        if self.phase == AUCTION:
            self.market.append(STEP3)  # the highest card; removed at the end of phase 2
            return
        self.removed.append(STEP3)
        self.remove_lowest()
        if self.phase == BUILD:
            s.step3_next = True
        else:
            assert self.phase == BUREAUCRACY
            s.step = 3

    def settle(self) -> None:
        """The city-count rule: every market plant numbered at or below the most cities any
        player has is removed and replaced, repeatedly."""
        top = self.s.max_cities()
        market = self.market
        while market and NUMBER[market[0]] <= top:
            self.removed.append(market.pop(0))
            self.draw()

    def take(self, plant: int) -> None:
        """A plant leaves the market for a player: refill once, then apply the city-count rule."""
        self.market.remove(plant)
        self.draw()
        self.settle()

    def end_auction_step3(self) -> None:
        """End of phase 2 with the Step 3 card in the market: remove it and the lowest plant."""
        if STEP3 in self.market:
            self.market.remove(STEP3)
            self.removed.append(STEP3)
            self.remove_lowest()
            self.s.step = 3
