from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.choose_plant_action_type_enum import ChoosePlantActionTypeEnum

T = TypeVar("T", bound="ChoosePlantActionRequest")


@_attrs_define
class ChoosePlantActionRequest:
    """Phase 2: open an auction for a plant in the current market.

    Attributes:
        bid (int): At least the plant's number.
        plant (int): The plant's id: its number (100 + its number for a New Power Plants card).
        type_ (ChoosePlantActionTypeEnum): * `choose_plant` - choose_plant
    """

    bid: int
    plant: int
    type_: ChoosePlantActionTypeEnum

    def to_dict(self) -> dict[str, Any]:
        bid = self.bid

        plant = self.plant

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bid": bid,
                "plant": plant,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bid = d.pop("bid")

        plant = d.pop("plant")

        type_ = ChoosePlantActionTypeEnum(d.pop("type"))

        choose_plant_action_request = cls(
            bid=bid,
            plant=plant,
            type_=type_,
        )

        return choose_plant_action_request
