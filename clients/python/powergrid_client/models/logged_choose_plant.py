from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LoggedChoosePlant")


@_attrs_define
class LoggedChoosePlant:
    """Phase 2: open an auction for a plant in the current market.

    Attributes:
        bid (int): At least the plant's number.
        plant (int): The plant's id: its number (100 + its number for a New Power Plants card).
        type_ (Literal['choose_plant']):
    """

    bid: int
    plant: int
    type_: Literal["choose_plant"]

    def to_dict(self) -> dict[str, Any]:
        bid = self.bid

        plant = self.plant

        type_ = self.type_

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

        type_ = cast(Literal["choose_plant"], d.pop("type"))
        if type_ != "choose_plant":
            raise ValueError(f"type must match const 'choose_plant', got '{type_}'")

        logged_choose_plant = cls(
            bid=bid,
            plant=plant,
            type_=type_,
        )

        return logged_choose_plant
