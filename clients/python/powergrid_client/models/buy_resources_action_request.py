from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.buy_resources_action_type_enum import BuyResourcesActionTypeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="BuyResourcesActionRequest")


@_attrs_define
class BuyResourcesActionRequest:
    """Phase 3: buy resources (all zero buys nothing). Omitted resources count 0.

    Attributes:
        type_ (BuyResourcesActionTypeEnum): * `buy_resources` - buy_resources
        coal (int | Unset): Tokens of coal to buy. Default: 0.
        garbage (int | Unset): Tokens of garbage to buy. Default: 0.
        oil (int | Unset): Tokens of oil to buy. Default: 0.
        uranium (int | Unset): Tokens of uranium to buy. Default: 0.
    """

    type_: BuyResourcesActionTypeEnum
    coal: int | Unset = 0
    garbage: int | Unset = 0
    oil: int | Unset = 0
    uranium: int | Unset = 0

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

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
        type_ = BuyResourcesActionTypeEnum(d.pop("type"))

        coal = d.pop("coal", UNSET)

        garbage = d.pop("garbage", UNSET)

        oil = d.pop("oil", UNSET)

        uranium = d.pop("uranium", UNSET)

        buy_resources_action_request = cls(
            type_=type_,
            coal=coal,
            garbage=garbage,
            oil=oil,
            uranium=uranium,
        )

        return buy_resources_action_request
