from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.fuel_enum import FuelEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.owned_plant_stored import OwnedPlantStored


T = TypeVar("T", bound="OwnedPlant")


@_attrs_define
class OwnedPlant:
    """A plant a player owns, with the tokens stored on it (every player's plants carry them).

    Attributes:
        burns (int): Tokens burnt to power (0 for ecological and fusion plants).
        fuel (FuelEnum):
        number (int):
        powers (int): Cities powered.
        stored (OwnedPlantStored): Tokens on this plant, per resource it holds ({} for ecological and fusion).
        deck (Literal['new'] | Unset):
        id (int | Unset): New Power Plants cards only: 100 + number.
    """

    burns: int
    fuel: FuelEnum
    number: int
    powers: int
    stored: OwnedPlantStored
    deck: Literal["new"] | Unset = UNSET
    id: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        burns = self.burns

        fuel = self.fuel.value

        number = self.number

        powers = self.powers

        stored = self.stored.to_dict()

        deck = self.deck

        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "burns": burns,
                "fuel": fuel,
                "number": number,
                "powers": powers,
                "stored": stored,
            }
        )
        if deck is not UNSET:
            field_dict["deck"] = deck
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.owned_plant_stored import OwnedPlantStored  # noqa: PLC0415

        d = dict(src_dict)
        burns = d.pop("burns")

        fuel = FuelEnum(d.pop("fuel"))

        number = d.pop("number")

        powers = d.pop("powers")

        stored = OwnedPlantStored.from_dict(d.pop("stored"))

        deck = cast(Literal["new"] | Unset, d.pop("deck", UNSET))
        if deck != "new" and not isinstance(deck, Unset):
            raise ValueError(f"deck must match const 'new', got '{deck}'")

        id = d.pop("id", UNSET)

        owned_plant = cls(
            burns=burns,
            fuel=fuel,
            number=number,
            powers=powers,
            stored=stored,
            deck=deck,
            id=id,
        )

        return owned_plant
