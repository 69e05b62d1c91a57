"""The one exception the engine raises for a move it refuses."""

from __future__ import annotations

from typing import Any

#: Every code the engine itself raises (``stale_state`` belongs to the server).
CODES = frozenset(
    {
        "not_your_turn",
        "wrong_phase",
        "unknown_action",
        "invalid_field",
        "unknown_plant",
        "plant_not_available",
        "bid_too_low",
        "insufficient_funds",
        "cannot_pass_round_one",
        "no_storage",
        "market_exhausted",
        "city_not_in_play",
        "city_unreachable",
        "areas_not_connected",
        "city_full",
        "already_in_city",
        "plant_not_owned",
        "not_enough_resources",
        "game_over",
    }
)


#: Numbers beyond this are not echoed back (Python refuses to print ints over 4300 digits).
_SHOWN_INT = 10**15


def shown(value: object, limit: int = 40) -> str:
    """A short, always printable rendering of a value a client sent, for an error message:
    strings clipped, huge numbers and containers not echoed (their repr may be enormous, fail on
    ints over Python's digit limit, or recurse too deep)."""
    if type(value) is str:
        return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."
    if type(value) is int:
        return str(value) if -_SHOWN_INT < value < _SHOWN_INT else "a very large number"
    if value is None or type(value) is bool or type(value) is float:
        return repr(value)
    return f"a {type(value).__name__}"


def plain(value: object, limit: int = 40) -> object:
    """``value`` if it is safe to put in error details (JSON-ready, small), else :func:`shown`."""
    if type(value) is int and -_SHOWN_INT < value < _SHOWN_INT:
        return value
    if type(value) is str and len(value) <= limit:
        return value
    return shown(value, limit)


class IllegalAction(Exception):
    """A move the rules do not allow, with a machine-readable ``code`` and a human ``message``."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The API's error object: ``{"code": ..., "message": ..., "details": ...}``."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details is not None:
            out["details"] = self.details
        return out

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r}, {self.details!r})"
