from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DiscardPlantMove")


@_attrs_define
class DiscardPlantMove:
    """
    Attributes:
        plants (list[int]): The plants (ids) the caller may discard.
        type_ (Literal['discard_plant']):
    """

    plants: list[int]
    type_: Literal["discard_plant"]

    def to_dict(self) -> dict[str, Any]:
        plants = self.plants

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "plants": plants,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        plants = cast(list[int], d.pop("plants"))

        type_ = cast(Literal["discard_plant"], d.pop("type"))
        if type_ != "discard_plant":
            raise ValueError(f"type must match const 'discard_plant', got '{type_}'")

        discard_plant_move = cls(
            plants=plants,
            type_=type_,
        )

        return discard_plant_move
