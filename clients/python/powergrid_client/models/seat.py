from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.blank_enum import BlankEnum
from ..models.bot_level_enum import BotLevelEnum
from ..models.colour_enum import ColourEnum
from ..models.offered_enum import OfferedEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Seat")


@_attrs_define
class Seat:
    """
    Attributes:
        bot_controlled (bool): A bot plays this seat after timeouts.
        colour (ColourEnum):
        display_name (str):
        offered (BlankEnum | OfferedEnum): Whether the seat is offered to substitutes (`POST .../substitute/`), and why:
            `""` (not offered), `seeking` (its player seeks a substitute and plays on), `left` (its player resigned; the bot
            plays it), `timed_out` (the bot took it over after missed deadlines; its player may still come back).
        seat (int):
        username (str):
        bot_level (BotLevelEnum | Unset):
    """

    bot_controlled: bool
    colour: ColourEnum
    display_name: str
    offered: BlankEnum | OfferedEnum
    seat: int
    username: str
    bot_level: BotLevelEnum | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bot_controlled = self.bot_controlled

        colour = self.colour.value

        display_name = self.display_name

        offered: str
        if isinstance(self.offered, OfferedEnum):
            offered = self.offered.value
        else:
            offered = self.offered.value

        seat = self.seat

        username = self.username

        bot_level: str | Unset = UNSET
        if not isinstance(self.bot_level, Unset):
            bot_level = self.bot_level.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bot_controlled": bot_controlled,
                "colour": colour,
                "display_name": display_name,
                "offered": offered,
                "seat": seat,
                "username": username,
            }
        )
        if bot_level is not UNSET:
            field_dict["bot_level"] = bot_level

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bot_controlled = d.pop("bot_controlled")

        colour = ColourEnum(d.pop("colour"))

        display_name = d.pop("display_name")

        def _parse_offered(data: object) -> BlankEnum | OfferedEnum:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                offered_type_0 = OfferedEnum(data)

                return offered_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            offered_type_1 = BlankEnum(data)

            return offered_type_1

        offered = _parse_offered(d.pop("offered"))

        seat = d.pop("seat")

        username = d.pop("username")

        _bot_level = d.pop("bot_level", UNSET)
        bot_level: BotLevelEnum | Unset
        if isinstance(_bot_level, Unset):
            bot_level = UNSET
        else:
            bot_level = BotLevelEnum(_bot_level)

        seat = cls(
            bot_controlled=bot_controlled,
            colour=colour,
            display_name=display_name,
            offered=offered,
            seat=seat,
            username=username,
            bot_level=bot_level,
        )

        return seat
