"""Power plant cards: the :class:`Plant` record and the decks, loaded from ``data/``.

Plants are named by an integer id everywhere (markets, decks, hands, actions). A base card's id
is its number, so every base game is as it always was; a card of the New Power Plants deck
(seed 001, second half) has id ``NEW_ID_BASE + number``, so the two decks can be mixed (variant 2)
and two cards of one number told apart. What the rules read off a card goes through its number
(``NUMBER``: the minimum bid, the city-count removal) or its place in the market (``RANK``: a
number's new card counts as the higher, as the seed's variant 3 says of its "+" plants).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import cast

from powergrid.shapes import Fuel
from powergrid.shapes import Plant as PlantShape

FUELS = ("coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion")

#: The Step 3 card is kept in decks and markets as this number: higher than any plant, so a
#: sorted market always has it last ("it counts as the highest plant").
STEP3 = 999

#: A New Power Plants card's id is this plus its number (base cards: the number itself).
NEW_ID_BASE = 100


@dataclass(frozen=True, slots=True)
class Plant:
    """A power plant card: number (also its minimum bid), fuel, tokens burnt, cities powered."""

    number: int
    fuel: str
    burns: int
    powers: int
    #: The deck the card belongs to: ``"base"`` or ``"new"`` (New Power Plants).
    deck: str = "base"

    @property
    def id(self) -> int:
        """The card's id: its number in the base deck, ``NEW_ID_BASE`` + number in the new."""
        return self.number if self.deck == "base" else NEW_ID_BASE + self.number

    @property
    def capacity(self) -> int:
        """Tokens the plant can store: twice what it burns (eco and fusion store nothing)."""
        return 2 * self.burns

    def to_dict(self) -> PlantShape:
        """The card as JSON: a new-deck card also gives its ``id`` (what actions name) and its
        ``deck``; a base card's JSON is as it always was (its id is its number)."""
        out: PlantShape = {
            "number": self.number,
            "fuel": cast(Fuel, self.fuel),  # checked against FUELS when the deck is loaded
            "burns": self.burns,
            "powers": self.powers,
        }
        if self.deck != "base":
            out["id"] = self.id
            out["deck"] = "new"
        return out


_DATA = Path(__file__).parent / "data"


@cache
def load_deck(name: str = "base") -> dict[int, Plant]:
    """The plants of a deck by id (cached). Raises ``KeyError`` for an unknown deck."""
    path = _DATA / f"plants_{name}.json"
    if not path.is_file():
        raise KeyError(name)
    raw = json.loads(path.read_text(encoding="utf-8"))
    plants: dict[int, Plant] = {}
    for item in raw["plants"]:
        plant = Plant(
            int(item["number"]), str(item["fuel"]), int(item["burns"]), int(item["powers"]), name
        )
        if plant.fuel not in FUELS:
            raise ValueError(f"plant {plant.number}: unknown fuel {plant.fuel!r}")
        plants[plant.id] = plant
    return dict(sorted(plants.items()))


#: The base deck, by id (= number).
BASE_PLANTS: dict[int, Plant] = load_deck("base")
#: The New Power Plants deck, by id (``NEW_ID_BASE`` + number).
NEW_PLANTS: dict[int, Plant] = load_deck("new")
#: Every card of both decks, by id: what the engine looks a plant up in.
PLANTS: dict[int, Plant] = {**BASE_PLANTS, **NEW_PLANTS}

#: Per id (and the Step 3 card): the printed number, what the minimum bid and the city-count
#: rule read.
NUMBER: dict[int, int] = {i: p.number for i, p in PLANTS.items()} | {STEP3: STEP3}

#: Per id: the card's place in a sorted market or hand. Twice the number, plus one for the new
#: deck's card, so the new card of a number counts as the higher (seed 001, variant 3) and base
#: cards keep the order of their ids. The Step 3 card is above all.
RANK: dict[int, int] = {i: 2 * p.number + (p.deck != "base") for i, p in PLANTS.items()} | {
    STEP3: 2 * STEP3
}

#: A card's twin of the other deck (same number), for the cards both decks have: in the mixed
#: deck (variant 2) the first of two twins drawn leaves the game.
TWIN: dict[int, int] = {
    i: j
    for i, p in PLANTS.items()
    for j, q in PLANTS.items()
    if p.number == q.number and p.deck != q.deck
}
