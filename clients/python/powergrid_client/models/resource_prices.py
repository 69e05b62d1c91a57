from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ResourcePrices")


@_attrs_define
class ResourcePrices:
    """Per resource, the price of each token present in the market, cheapest first.

    Attributes:
        coal (list[int]):
        garbage (list[int]):
        oil (list[int]):
        uranium (list[int]):
    """

    coal: list[int]
    garbage: list[int]
    oil: list[int]
    uranium: list[int]

    def to_dict(self) -> dict[str, Any]:
        coal = self.coal

        garbage = self.garbage

        oil = self.oil

        uranium = self.uranium

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "coal": coal,
                "garbage": garbage,
                "oil": oil,
                "uranium": uranium,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        coal = cast(list[int], d.pop("coal"))

        garbage = cast(list[int], d.pop("garbage"))

        oil = cast(list[int], d.pop("oil"))

        uranium = cast(list[int], d.pop("uranium"))

        resource_prices = cls(
            coal=coal,
            garbage=garbage,
            oil=oil,
            uranium=uranium,
        )

        return resource_prices
