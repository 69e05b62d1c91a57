from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.colour_enum import ColourEnum

T = TypeVar("T", bound="Seat")


@_attrs_define
class Seat:
    """
    Attributes:
        bot_controlled (bool): A bot plays this seat after timeouts.
        colour (ColourEnum):
        display_name (str):
        seat (int):
        username (str):
    """

    bot_controlled: bool
    colour: ColourEnum
    display_name: str
    seat: int
    username: str

    def to_dict(self) -> dict[str, Any]:
        bot_controlled = self.bot_controlled

        colour = self.colour.value

        display_name = self.display_name

        seat = self.seat

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bot_controlled": bot_controlled,
                "colour": colour,
                "display_name": display_name,
                "seat": seat,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bot_controlled = d.pop("bot_controlled")

        colour = ColourEnum(d.pop("colour"))

        display_name = d.pop("display_name")

        seat = d.pop("seat")

        username = d.pop("username")

        seat = cls(
            bot_controlled=bot_controlled,
            colour=colour,
            display_name=display_name,
            seat=seat,
            username=username,
        )

        return seat
