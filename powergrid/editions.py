"""Rules editions: which reading of the seeds a game is played by.

When the engine's reading of the rules is corrected, games already running must not change under
their players (their replay must still give their stored state), so the correction goes in as a
new edition and a game keeps the edition it was set up with (``State.edition``; the server
records it per game). New games get :data:`LATEST`. The differences live in
``data/editions.json``:

- edition 1, the engine's first reading: plant 13 out of the game on France, at most 22 cities;
- edition 2, as the seeds write it: on France 13 is an ordinary card (seed 002, footnote *1),
  and the stock of houses is unlimited (seed 000).

>>> edition(1).house_limit, edition(2).house_limit
(22, None)
>>> edition(1).removed_plants("france"), edition(2).removed_plants("france")
((13,), ())
>>> LATEST == max(EDITIONS)
True
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from powergrid.errors import IllegalAction

_DATA = Path(__file__).resolve().parent / "data" / "editions.json"


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition's rules where editions differ.

    ``house_limit``: the most cities a player may have (None: unlimited; the first-game
    variant's own limit applies in every edition). ``removed``: per map, base-deck plants out of
    the game from the start (face up, known to all)."""

    number: int
    house_limit: int | None
    removed: tuple[tuple[str, tuple[int, ...]], ...] = ()
    notes: tuple[str, ...] = ()

    def removed_plants(self, map_slug: str) -> tuple[int, ...]:
        """The base-deck plants this edition takes out of the game on ``map_slug``."""
        for slug, plants in self.removed:
            if slug == map_slug:
                return plants
        return ()


@functools.cache
def _load() -> tuple[int, dict[int, Edition]]:
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    out: dict[int, Edition] = {}
    for key, d in data["editions"].items():
        limit = d.get("house_limit")
        out[int(key)] = Edition(
            number=int(key),
            house_limit=None if limit is None else int(limit),
            removed=tuple(
                (slug, tuple(int(n) for n in plants))
                for slug, plants in sorted(d.get("removed_plants", {}).items())
            ),
            notes=tuple(d.get("notes", ())),
        )
    return int(data["latest"]), out


#: Every edition's number, oldest first.
EDITIONS: tuple[int, ...] = tuple(sorted(_load()[1]))
#: The edition new games are set up with.
LATEST: int = _load()[0]
#: The edition of a game recorded before editions existed.
FIRST: int = EDITIONS[0]


def edition(number: int) -> Edition:
    """The edition ``number``; :class:`IllegalAction` for one that does not exist."""
    found = _load()[1].get(number) if type(number) is int else None
    if found is None:
        raise IllegalAction(
            "invalid_field", f"Unknown rules edition {number!r}.", {"known": list(EDITIONS)}
        )
    return found
