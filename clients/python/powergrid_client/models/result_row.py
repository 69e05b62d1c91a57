from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ResultRow")


@_attrs_define
class ResultRow:
    """One seat's result at the end: cities powered, money, cities connected, rank (1 = won).

    Attributes:
        cities (int):
        money (int):
        powered (int):
        rank (int):
        seat (int):
    """

    cities: int
    money: int
    powered: int
    rank: int
    seat: int

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        money = self.money

        powered = self.powered

        rank = self.rank

        seat = self.seat

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "money": money,
                "powered": powered,
                "rank": rank,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cities = d.pop("cities")

        money = d.pop("money")

        powered = d.pop("powered")

        rank = d.pop("rank")

        seat = d.pop("seat")

        result_row = cls(
            cities=cities,
            money=money,
            powered=powered,
            rank=rank,
            seat=seat,
        )

        return result_row
