from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedBuyResources")


@_attrs_define
class LoggedBuyResources:
    """Phase 3: buy resources (all zero buys nothing). Omitted resources count 0.

    Attributes:
        type_ (Literal['buy_resources']):
        coal (int | Unset): Tokens of coal to buy.
        garbage (int | Unset): Tokens of garbage to buy.
        oil (int | Unset): Tokens of oil to buy.
        uranium (int | Unset): Tokens of uranium to buy.
    """

    type_: Literal["buy_resources"]
    coal: int | Unset = UNSET
    garbage: int | Unset = UNSET
    oil: int | Unset = UNSET
    uranium: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        coal = self.coal

        garbage = self.garbage

        oil = self.oil

        uranium = self.uranium

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if coal is not UNSET:
            field_dict["coal"] = coal
        if garbage is not UNSET:
            field_dict["garbage"] = garbage
        if oil is not UNSET:
            field_dict["oil"] = oil
        if uranium is not UNSET:
            field_dict["uranium"] = uranium

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["buy_resources"], d.pop("type"))
        if type_ != "buy_resources":
            raise ValueError(f"type must match const 'buy_resources', got '{type_}'")

        coal = d.pop("coal", UNSET)

        garbage = d.pop("garbage", UNSET)

        oil = d.pop("oil", UNSET)

        uranium = d.pop("uranium", UNSET)

        logged_buy_resources = cls(
            type_=type_,
            coal=coal,
            garbage=garbage,
            oil=oil,
            uranium=uranium,
        )

        return logged_buy_resources
