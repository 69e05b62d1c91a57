from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.discard_plant_action_type_enum import DiscardPlantActionTypeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.discard_plant_action_request_drop import DiscardPlantActionRequestDrop


T = TypeVar("T", bound="DiscardPlantActionRequest")


@_attrs_define
class DiscardPlantActionRequest:
    """Right after winning a plant over the limit: discard one.

    Attributes:
        plant (int): The plant to discard, by its id (as choose_plant's).
        type_ (DiscardPlantActionTypeEnum): * `discard_plant` - discard_plant
        drop (DiscardPlantActionRequestDrop | Unset): {resource: n} tokens to drop when they no longer fit.
    """

    plant: int
    type_: DiscardPlantActionTypeEnum
    drop: DiscardPlantActionRequestDrop | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        plant = self.plant

        type_ = self.type_.value

        drop: dict[str, Any] | Unset = UNSET
        if not isinstance(self.drop, Unset):
            drop = self.drop.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "plant": plant,
                "type": type_,
            }
        )
        if drop is not UNSET:
            field_dict["drop"] = drop

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.discard_plant_action_request_drop import DiscardPlantActionRequestDrop  # noqa: PLC0415

        d = dict(src_dict)
        plant = d.pop("plant")

        type_ = DiscardPlantActionTypeEnum(d.pop("type"))

        _drop = d.pop("drop", UNSET)
        drop: DiscardPlantActionRequestDrop | Unset
        if isinstance(_drop, Unset):
            drop = UNSET
        else:
            drop = DiscardPlantActionRequestDrop.from_dict(_drop)

        discard_plant_action_request = cls(
            plant=plant,
            type_=type_,
            drop=drop,
        )

        return discard_plant_action_request
