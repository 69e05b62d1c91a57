from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.seat_figures import SeatFigures


T = TypeVar("T", bound="RoundFigures")


@_attrs_define
class RoundFigures:
    """Each seat's figures at the start of a round (or at the end of the game).

    Attributes:
        end (bool): The final position, after the last round's bureaucracy.
        round_ (int): The round (the end: the round after the last).
        seats (list[SeatFigures]):
    """

    end: bool
    round_: int
    seats: list[SeatFigures]

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        round_ = self.round_

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "end": end,
                "round": round_,
                "seats": seats,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_figures import SeatFigures  # noqa: PLC0415

        d = dict(src_dict)
        end = d.pop("end")

        round_ = d.pop("round")

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in _seats:
            seats_item = SeatFigures.from_dict(seats_item_data)

            seats.append(seats_item)

        round_figures = cls(
            end=end,
            round_=round_,
            seats=seats,
        )

        return round_figures
