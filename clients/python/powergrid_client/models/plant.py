from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.fuel_enum import FuelEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Plant")


@_attrs_define
class Plant:
    """A power plant card. A New Power Plants card also has `id` (100 + number: what actions name) and `deck`; a base
    card's id is its number.

        Attributes:
            burns (int): Tokens burnt to power (0 for ecological and fusion plants).
            fuel (FuelEnum):
            number (int):
            powers (int): Cities powered.
            deck (Literal['new'] | Unset):
            id (int | Unset): New Power Plants cards only: 100 + number.
    """

    burns: int
    fuel: FuelEnum
    number: int
    powers: int
    deck: Literal["new"] | Unset = UNSET
    id: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        burns = self.burns

        fuel = self.fuel.value

        number = self.number

        powers = self.powers

        deck = self.deck

        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "burns": burns,
                "fuel": fuel,
                "number": number,
                "powers": powers,
            }
        )
        if deck is not UNSET:
            field_dict["deck"] = deck
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        burns = d.pop("burns")

        fuel = FuelEnum(d.pop("fuel"))

        number = d.pop("number")

        powers = d.pop("powers")

        deck = cast(Literal["new"] | Unset, d.pop("deck", UNSET))
        if deck != "new" and not isinstance(deck, Unset):
            raise ValueError(f"deck must match const 'new', got '{deck}'")

        id = d.pop("id", UNSET)

        plant = cls(
            burns=burns,
            fuel=fuel,
            number=number,
            powers=powers,
            deck=deck,
            id=id,
        )

        return plant
