from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.colour_enum import ColourEnum

T = TypeVar("T", bound="GameResultRow")


@_attrs_define
class GameResultRow:
    """One seat's score, as the result page's table shows it.

    Attributes:
        cities (int): Cities connected.
        colour (ColourEnum):
        money (int):
        name (str):
        powered (int): Cities powered in the last round.
        rank (int): 1 = won; ties share a rank.
        seat (int):
        takebacks_agreed (int):
        takebacks_alone (int):
        username (str):
    """

    cities: int
    colour: ColourEnum
    money: int
    name: str
    powered: int
    rank: int
    seat: int
    takebacks_agreed: int
    takebacks_alone: int
    username: str

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        colour = self.colour.value

        money = self.money

        name = self.name

        powered = self.powered

        rank = self.rank

        seat = self.seat

        takebacks_agreed = self.takebacks_agreed

        takebacks_alone = self.takebacks_alone

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "colour": colour,
                "money": money,
                "name": name,
                "powered": powered,
                "rank": rank,
                "seat": seat,
                "takebacks_agreed": takebacks_agreed,
                "takebacks_alone": takebacks_alone,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cities = d.pop("cities")

        colour = ColourEnum(d.pop("colour"))

        money = d.pop("money")

        name = d.pop("name")

        powered = d.pop("powered")

        rank = d.pop("rank")

        seat = d.pop("seat")

        takebacks_agreed = d.pop("takebacks_agreed")

        takebacks_alone = d.pop("takebacks_alone")

        username = d.pop("username")

        game_result_row = cls(
            cities=cities,
            colour=colour,
            money=money,
            name=name,
            powered=powered,
            rank=rank,
            seat=seat,
            takebacks_agreed=takebacks_agreed,
            takebacks_alone=takebacks_alone,
            username=username,
        )

        return game_result_row
