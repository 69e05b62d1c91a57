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
        "city_full",
        "already_in_city",
        "plant_not_owned",
        "not_enough_resources",
        "game_over",
    }
)


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
