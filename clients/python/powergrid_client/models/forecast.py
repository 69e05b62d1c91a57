from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.seat_pace import SeatPace


T = TypeVar("T", bound="Forecast")


@_attrs_define
class Forecast:
    """
    Attributes:
        bottleneck (int | None): The seat the game waits on most (null: too early to say).
        finish (datetime.datetime): Expected end (a rough guide).
        hours_per_wait (float): Expected hours a wait: minutes_per_wait / 60, to 3 places (never 0 alone).
        minutes_left (int): Minutes until the expected end (at least 1).
        minutes_per_wait (float): The same in minutes, to 1 place (a practice game against bots waits minutes).
        rounds_left (int):
        seats (list[SeatPace]):
        sheet_rounds (int): Rounds whose sheets were answered (one wait each, all seats at once): counted among the
            waits so far, the moves the sheets made are not.
        waits_left (int): Times the game will wait for a person.
    """

    bottleneck: int | None
    finish: datetime.datetime
    hours_per_wait: float
    minutes_left: int
    minutes_per_wait: float
    rounds_left: int
    seats: list[SeatPace]
    sheet_rounds: int
    waits_left: int

    def to_dict(self) -> dict[str, Any]:
        bottleneck: int | None
        bottleneck = self.bottleneck

        finish = self.finish.isoformat()

        hours_per_wait = self.hours_per_wait

        minutes_left = self.minutes_left

        minutes_per_wait = self.minutes_per_wait

        rounds_left = self.rounds_left

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)

        sheet_rounds = self.sheet_rounds

        waits_left = self.waits_left

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bottleneck": bottleneck,
                "finish": finish,
                "hours_per_wait": hours_per_wait,
                "minutes_left": minutes_left,
                "minutes_per_wait": minutes_per_wait,
                "rounds_left": rounds_left,
                "seats": seats,
                "sheet_rounds": sheet_rounds,
                "waits_left": waits_left,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_pace import SeatPace  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_bottleneck(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        bottleneck = _parse_bottleneck(d.pop("bottleneck"))

        finish = datetime.datetime.fromisoformat(d.pop("finish"))

        hours_per_wait = d.pop("hours_per_wait")

        minutes_left = d.pop("minutes_left")

        minutes_per_wait = d.pop("minutes_per_wait")

        rounds_left = d.pop("rounds_left")

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in _seats:
            seats_item = SeatPace.from_dict(seats_item_data)

            seats.append(seats_item)

        sheet_rounds = d.pop("sheet_rounds")

        waits_left = d.pop("waits_left")

        forecast = cls(
            bottleneck=bottleneck,
            finish=finish,
            hours_per_wait=hours_per_wait,
            minutes_left=minutes_left,
            minutes_per_wait=minutes_per_wait,
            rounds_left=rounds_left,
            seats=seats,
            sheet_rounds=sheet_rounds,
            waits_left=waits_left,
        )

        return forecast
