"""Cheap checks of an action's fields, shared by the action handlers.

Every check raises :class:`IllegalAction` with a clear sentence; ``bool`` never passes as ``int``
(``type(x) is int``), and numbers are bounded so nothing huge reaches the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from powergrid.errors import IllegalAction, plain, shown
from powergrid.plants import PLANTS
from powergrid.tables import RESOURCES as NAMES

#: The largest number any numeric field may hold (more than all the money in any game).
MAX_NUMBER = 100_000
#: The smallest and largest plant numbers (a new-deck card is 100 + its number): a refused
#: plant field's bounds (a number between them may still be no plant: ``unknown_plant``).
PLANT_MIN = min(PLANTS)
PLANT_MAX = max(PLANTS)


def check_keys(action: Mapping[str, Any], allowed: frozenset[str]) -> None:
    if len(action) > len(allowed) or not allowed.issuperset(action):
        extra = sorted(shown(k) for k in action if k not in allowed)
        raise IllegalAction(
            "invalid_field",
            f"Unknown field {extra[0]} for the action {shown(action['type'])}.",
            {"field": extra[0], "allowed": sorted(allowed - {"type"})},
        )


def int_field(value: object, name: str, minimum: int = 0) -> int:
    """A non-negative (or at least ``minimum``) bounded integer; bools, floats, strings refused."""
    if type(value) is not int:
        raise IllegalAction(
            "invalid_field",
            f"The field {name!r} must be a whole number from {minimum} to {MAX_NUMBER}.",
            {"field": name, "min": minimum, "max": MAX_NUMBER},
        )
    if value < minimum or value > MAX_NUMBER:
        raise IllegalAction(
            "invalid_field",
            f"The field {name!r} must be between {minimum} and {MAX_NUMBER}.",
            {"field": name, "min": minimum, "max": MAX_NUMBER},
        )
    return value


def plant_field(value: object, name: str = "plant") -> int:
    """A plant number that exists in the deck (``unknown_plant`` otherwise)."""
    if type(value) is not int:
        raise IllegalAction(
            "invalid_field",
            f"The field {name!r} must be a plant number (a whole number from {PLANT_MIN} to "
            f"{PLANT_MAX}).",
            {"field": name, "min": PLANT_MIN, "max": PLANT_MAX},
        )
    if value not in PLANTS:
        raise IllegalAction(
            "unknown_plant", f"There is no power plant {shown(value)}.", {"plant": plain(value)}
        )
    return value


def plant_key(value: object) -> int:
    """A plant number used as a JSON object key: an int or a string of digits."""
    if type(value) is str and value.isascii() and value.isdigit() and len(value) < 6:
        value = int(value)
    return plant_field(value, "hybrid")


def tokens_field(value: object, name: str) -> tuple[int, int, int, int]:
    """``{resource: n}`` with known resources and bounded counts, as a 4-tuple."""
    if type(value) is not dict:
        raise IllegalAction(
            "invalid_field",
            f'The field {name!r} must map resources to numbers, like {{"coal": 1}}.',
            {"field": name},
        )
    out = [0, 0, 0, 0]
    for key, n in value.items():
        if key not in NAMES:
            raise IllegalAction(
                "invalid_field", f"Unknown resource {shown(key)} in {name!r}.", {"field": name}
            )
        out[NAMES.index(key)] = int_field(n, f"{name}.{key}")
    return (out[0], out[1], out[2], out[3])
