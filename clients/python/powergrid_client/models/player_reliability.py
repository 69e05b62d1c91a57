from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlayerReliability")


@_attrs_define
class PlayerReliability:
    """How the player keeps to deadlines, over their last turns (the server's bots and a seat the bot played are not
    counted).

        Attributes:
            abandoned (int): Seats the bot plays now after the player's timeouts.
            median_reply_hours (float | None): Median time from when a turn was awaited to the player's move.
            on_time (int):
            percent (int | None): on_time of turns, in %; null: no turn yet.
            timed_out (int):
            turns (int): Recent turns counted (made by the player or timed out, last 50).
    """

    abandoned: int
    median_reply_hours: float | None
    on_time: int
    percent: int | None
    timed_out: int
    turns: int

    def to_dict(self) -> dict[str, Any]:
        abandoned = self.abandoned

        median_reply_hours: float | None
        median_reply_hours = self.median_reply_hours

        on_time = self.on_time

        percent: int | None
        percent = self.percent

        timed_out = self.timed_out

        turns = self.turns

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "abandoned": abandoned,
                "median_reply_hours": median_reply_hours,
                "on_time": on_time,
                "percent": percent,
                "timed_out": timed_out,
                "turns": turns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        abandoned = d.pop("abandoned")

        def _parse_median_reply_hours(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median_reply_hours = _parse_median_reply_hours(d.pop("median_reply_hours"))

        on_time = d.pop("on_time")

        def _parse_percent(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        percent = _parse_percent(d.pop("percent"))

        timed_out = d.pop("timed_out")

        turns = d.pop("turns")

        player_reliability = cls(
            abandoned=abandoned,
            median_reply_hours=median_reply_hours,
            on_time=on_time,
            percent=percent,
            timed_out=timed_out,
            turns=turns,
        )

        return player_reliability
