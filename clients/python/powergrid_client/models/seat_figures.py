from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SeatFigures")


@_attrs_define
class SeatFigures:
    """
    Attributes:
        cities (int): Cities connected.
        money (int): Money (every payment is public once the game is over).
        plants (int): Power plants owned.
        seat (int):
    """

    cities: int
    money: int
    plants: int
    seat: int

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        money = self.money

        plants = self.plants

        seat = self.seat

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "money": money,
                "plants": plants,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cities = d.pop("cities")

        money = d.pop("money")

        plants = d.pop("plants")

        seat = d.pop("seat")

        seat_figures = cls(
            cities=cities,
            money=money,
            plants=plants,
            seat=seat,
        )

        return seat_figures
