"""Power plant cards: the :class:`Plant` record and the base deck, loaded from ``data/``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

FUELS = ("coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion")

#: The Step 3 card is kept in decks and markets as this number: higher than any plant, so a
#: sorted market always has it last ("it counts as the highest plant").
STEP3 = 999


@dataclass(frozen=True, slots=True)
class Plant:
    """A power plant card: number (also its minimum bid), fuel, tokens burnt, cities powered."""

    number: int
    fuel: str
    burns: int
    powers: int

    @property
    def capacity(self) -> int:
        """Tokens the plant can store: twice what it burns (eco and fusion store nothing)."""
        return 2 * self.burns

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "fuel": self.fuel,
            "burns": self.burns,
            "powers": self.powers,
        }


_DATA = Path(__file__).parent / "data"


@cache
def load_deck(name: str = "base") -> dict[int, Plant]:
    """The plants of a deck by number (cached). Raises ``KeyError`` for an unknown deck."""
    path = _DATA / f"plants_{name}.json"
    if not path.is_file():
        raise KeyError(name)
    raw = json.loads(path.read_text(encoding="utf-8"))
    plants: dict[int, Plant] = {}
    for item in raw["plants"]:
        plant = Plant(
            int(item["number"]), str(item["fuel"]), int(item["burns"]), int(item["powers"])
        )
        if plant.fuel not in FUELS:
            raise ValueError(f"plant {plant.number}: unknown fuel {plant.fuel!r}")
        plants[plant.number] = plant
    return dict(sorted(plants.items()))


#: The base deck, by number.
PLANTS: dict[int, Plant] = load_deck("base")
