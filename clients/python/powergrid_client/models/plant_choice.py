from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PlantChoice")


@_attrs_define
class PlantChoice:
    """A plant the caller may put up: name it by `id` when given (a New Power Plants card), else by `number`.

    Attributes:
        min_bid (int):
        number (int):
        id (int | Unset):
    """

    min_bid: int
    number: int
    id: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        min_bid = self.min_bid

        number = self.number

        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "min_bid": min_bid,
                "number": number,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        min_bid = d.pop("min_bid")

        number = d.pop("number")

        id = d.pop("id", UNSET)

        plant_choice = cls(
            min_bid=min_bid,
            number=number,
            id=id,
        )

        return plant_choice
