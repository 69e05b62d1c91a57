from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SeatPace")


@_attrs_define
class SeatPace:
    """
    Attributes:
        median_reply_hours (float | None): Median time from when the game awaited this seat to its own move (in a
            simultaneous phase, from when the phase asked everyone).
        replies (int): Moves of its own counted (at most 20).
        seat (int):
        waited_hours (float): Hours the game waited on it, recent moves.
    """

    median_reply_hours: float | None
    replies: int
    seat: int
    waited_hours: float

    def to_dict(self) -> dict[str, Any]:
        median_reply_hours: float | None
        median_reply_hours = self.median_reply_hours

        replies = self.replies

        seat = self.seat

        waited_hours = self.waited_hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "median_reply_hours": median_reply_hours,
                "replies": replies,
                "seat": seat,
                "waited_hours": waited_hours,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_median_reply_hours(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median_reply_hours = _parse_median_reply_hours(d.pop("median_reply_hours"))

        replies = d.pop("replies")

        seat = d.pop("seat")

        waited_hours = d.pop("waited_hours")

        seat_pace = cls(
            median_reply_hours=median_reply_hours,
            replies=replies,
            seat=seat,
            waited_hours=waited_hours,
        )

        return seat_pace
