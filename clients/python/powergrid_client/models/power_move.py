from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PowerMove")


@_attrs_define
class PowerMove:
    """
    Attributes:
        max_cities (int): The most cities the caller can power now.
        plants (list[int]): The plants (ids) that can fire with the tokens held.
        type_ (Literal['power']):
    """

    max_cities: int
    plants: list[int]
    type_: Literal["power"]

    def to_dict(self) -> dict[str, Any]:
        max_cities = self.max_cities

        plants = self.plants

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "max_cities": max_cities,
                "plants": plants,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_cities = d.pop("max_cities")

        plants = cast(list[int], d.pop("plants"))

        type_ = cast(Literal["power"], d.pop("type"))
        if type_ != "power":
            raise ValueError(f"type must match const 'power', got '{type_}'")

        power_move = cls(
            max_cities=max_cities,
            plants=plants,
            type_=type_,
        )

        return power_move
