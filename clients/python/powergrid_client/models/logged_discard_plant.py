from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.logged_discard_plant_drop import LoggedDiscardPlantDrop


T = TypeVar("T", bound="LoggedDiscardPlant")


@_attrs_define
class LoggedDiscardPlant:
    """Right after winning a plant over the limit: discard one.

    Attributes:
        plant (int): The plant to discard, by its id (as choose_plant's).
        type_ (Literal['discard_plant']):
        drop (LoggedDiscardPlantDrop | Unset): {resource: n} tokens to drop when they no longer fit.
    """

    plant: int
    type_: Literal["discard_plant"]
    drop: LoggedDiscardPlantDrop | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        plant = self.plant

        type_ = self.type_

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
        from ..models.logged_discard_plant_drop import LoggedDiscardPlantDrop  # noqa: PLC0415

        d = dict(src_dict)
        plant = d.pop("plant")

        type_ = cast(Literal["discard_plant"], d.pop("type"))
        if type_ != "discard_plant":
            raise ValueError(f"type must match const 'discard_plant', got '{type_}'")

        _drop = d.pop("drop", UNSET)
        drop: LoggedDiscardPlantDrop | Unset
        if isinstance(_drop, Unset):
            drop = UNSET
        else:
            drop = LoggedDiscardPlantDrop.from_dict(_drop)

        logged_discard_plant = cls(
            plant=plant,
            type_=type_,
            drop=drop,
        )

        return logged_discard_plant
