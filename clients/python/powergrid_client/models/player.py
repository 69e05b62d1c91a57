from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.colour_enum import ColourEnum

if TYPE_CHECKING:
    from ..models.owned_plant import OwnedPlant
    from ..models.tokens import Tokens


T = TypeVar("T", bound="Player")


@_attrs_define
class Player:
    """One player as the caller sees them.

    Attributes:
        cities (list[str]): The slugs of the cities the player has built in.
        colour (ColourEnum):
        money (int | None): The caller's own money; null for everyone else until the game is over.
        name (str): The name the game shows (display name, else username).
        plants (list[OwnedPlant]):
        resources (Tokens): A count of each resource's tokens (all four always given).
        seat (int):
        username (str):
    """

    cities: list[str]
    colour: ColourEnum
    money: int | None
    name: str
    plants: list[OwnedPlant]
    resources: Tokens
    seat: int
    username: str

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        colour = self.colour.value

        money: int | None
        money = self.money

        name = self.name

        plants = []
        for plants_item_data in self.plants:
            plants_item = plants_item_data.to_dict()
            plants.append(plants_item)

        resources = self.resources.to_dict()

        seat = self.seat

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "colour": colour,
                "money": money,
                "name": name,
                "plants": plants,
                "resources": resources,
                "seat": seat,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.owned_plant import OwnedPlant  # noqa: PLC0415
        from ..models.tokens import Tokens  # noqa: PLC0415

        d = dict(src_dict)
        cities = cast(list[str], d.pop("cities"))

        colour = ColourEnum(d.pop("colour"))

        def _parse_money(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        money = _parse_money(d.pop("money"))

        name = d.pop("name")

        plants = []
        _plants = d.pop("plants")
        for plants_item_data in _plants:
            plants_item = OwnedPlant.from_dict(plants_item_data)

            plants.append(plants_item)

        resources = Tokens.from_dict(d.pop("resources"))

        seat = d.pop("seat")

        username = d.pop("username")

        player = cls(
            cities=cities,
            colour=colour,
            money=money,
            name=name,
            plants=plants,
            resources=resources,
            seat=seat,
            username=username,
        )

        return player
