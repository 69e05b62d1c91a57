from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.plant_choice import PlantChoice


T = TypeVar("T", bound="ChoosePlantMove")


@_attrs_define
class ChoosePlantMove:
    """
    Attributes:
        max_bid (int): The caller's money.
        plants (list[PlantChoice]):
        type_ (Literal['choose_plant']):
    """

    max_bid: int
    plants: list[PlantChoice]
    type_: Literal["choose_plant"]

    def to_dict(self) -> dict[str, Any]:
        max_bid = self.max_bid

        plants = []
        for plants_item_data in self.plants:
            plants_item = plants_item_data.to_dict()
            plants.append(plants_item)

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "max_bid": max_bid,
                "plants": plants,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plant_choice import PlantChoice  # noqa: PLC0415

        d = dict(src_dict)
        max_bid = d.pop("max_bid")

        plants = []
        _plants = d.pop("plants")
        for plants_item_data in _plants:
            plants_item = PlantChoice.from_dict(plants_item_data)

            plants.append(plants_item)

        type_ = cast(Literal["choose_plant"], d.pop("type"))
        if type_ != "choose_plant":
            raise ValueError(f"type must match const 'choose_plant', got '{type_}'")

        choose_plant_move = cls(
            max_bid=max_bid,
            plants=plants,
            type_=type_,
        )

        return choose_plant_move
