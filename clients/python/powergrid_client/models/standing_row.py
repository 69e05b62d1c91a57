from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="StandingRow")


@_attrs_define
class StandingRow:
    """
    Attributes:
        byes (int):
        dropped (bool):
        games (int):
        head_to_head (int):
        money (int):
        name (str):
        place (int): Shared by players equal on every tie-break but join order.
        points (int):
        powered (int):
        username (str):
    """

    byes: int
    dropped: bool
    games: int
    head_to_head: int
    money: int
    name: str
    place: int
    points: int
    powered: int
    username: str

    def to_dict(self) -> dict[str, Any]:
        byes = self.byes

        dropped = self.dropped

        games = self.games

        head_to_head = self.head_to_head

        money = self.money

        name = self.name

        place = self.place

        points = self.points

        powered = self.powered

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "byes": byes,
                "dropped": dropped,
                "games": games,
                "head_to_head": head_to_head,
                "money": money,
                "name": name,
                "place": place,
                "points": points,
                "powered": powered,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        byes = d.pop("byes")

        dropped = d.pop("dropped")

        games = d.pop("games")

        head_to_head = d.pop("head_to_head")

        money = d.pop("money")

        name = d.pop("name")

        place = d.pop("place")

        points = d.pop("points")

        powered = d.pop("powered")

        username = d.pop("username")

        standing_row = cls(
            byes=byes,
            dropped=dropped,
            games=games,
            head_to_head=head_to_head,
            money=money,
            name=name,
            place=place,
            points=points,
            powered=powered,
            username=username,
        )

        return standing_row
