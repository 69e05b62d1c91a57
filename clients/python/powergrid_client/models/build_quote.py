from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="BuildQuote")


@_attrs_define
class BuildQuote:
    """What building in these cities now would cost the caller's seat, in the cheapest order the rules allow (build spaces
    plus the cheapest connections); money is not checked.

        Attributes:
            cities (list[str]): The cities priced, as asked.
            cost (int):
            money_left (int): The caller's money after paying (negative: too little).
    """

    cities: list[str]
    cost: int
    money_left: int

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        cost = self.cost

        money_left = self.money_left

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "cost": cost,
                "money_left": money_left,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cities = cast(list[str], d.pop("cities"))

        cost = d.pop("cost")

        money_left = d.pop("money_left")

        build_quote = cls(
            cities=cities,
            cost=cost,
            money_left=money_left,
        )

        return build_quote
