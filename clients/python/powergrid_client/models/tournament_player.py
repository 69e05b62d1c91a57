from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="TournamentPlayer")


@_attrs_define
class TournamentPlayer:
    """An entrant at a table: the seat, and once the game ended its result and points.

    Attributes:
        money (int | None):
        name (str):
        points (int | None): Tournament points (120 to a table's winner).
        powered (int | None):
        rank (int | None): The rules' rank at the table (1: winner); null: playing.
        seat (int):
        username (str):
    """

    money: int | None
    name: str
    points: int | None
    powered: int | None
    rank: int | None
    seat: int
    username: str

    def to_dict(self) -> dict[str, Any]:
        money: int | None
        money = self.money

        name = self.name

        points: int | None
        points = self.points

        powered: int | None
        powered = self.powered

        rank: int | None
        rank = self.rank

        seat = self.seat

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "money": money,
                "name": name,
                "points": points,
                "powered": powered,
                "rank": rank,
                "seat": seat,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_money(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        money = _parse_money(d.pop("money"))

        name = d.pop("name")

        def _parse_points(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        points = _parse_points(d.pop("points"))

        def _parse_powered(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        powered = _parse_powered(d.pop("powered"))

        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))

        seat = d.pop("seat")

        username = d.pop("username")

        tournament_player = cls(
            money=money,
            name=name,
            points=points,
            powered=powered,
            rank=rank,
            seat=seat,
            username=username,
        )

        return tournament_player
