from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LeagueCreateRequest")


@_attrs_define
class LeagueCreateRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            maps (list[str]): Map slugs; each table plays one.
            name (str): 1 to 80 characters.
            division_size (int | Unset): The most members a division holds (at least table_max). Default: 9.
            movers (int | Unset): How many go up and down at each division's boundary: at most half of division_size
                (divisions of 9: at most 4). Default: 2.
            rounds (int | Unset): Rounds a season. Default: 3.
            table_max (int | Unset):  Default: 5.
            table_min (int | Unset):  Default: 3.
            turn_hours (int | Unset):  Default: 24.
    """

    maps: list[str]
    name: str
    division_size: int | Unset = 9
    movers: int | Unset = 2
    rounds: int | Unset = 3
    table_max: int | Unset = 5
    table_min: int | Unset = 3
    turn_hours: int | Unset = 24

    def to_dict(self) -> dict[str, Any]:
        maps = self.maps

        name = self.name

        division_size = self.division_size

        movers = self.movers

        rounds = self.rounds

        table_max = self.table_max

        table_min = self.table_min

        turn_hours = self.turn_hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "maps": maps,
                "name": name,
            }
        )
        if division_size is not UNSET:
            field_dict["division_size"] = division_size
        if movers is not UNSET:
            field_dict["movers"] = movers
        if rounds is not UNSET:
            field_dict["rounds"] = rounds
        if table_max is not UNSET:
            field_dict["table_max"] = table_max
        if table_min is not UNSET:
            field_dict["table_min"] = table_min
        if turn_hours is not UNSET:
            field_dict["turn_hours"] = turn_hours

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        maps = cast(list[str], d.pop("maps"))

        name = d.pop("name")

        division_size = d.pop("division_size", UNSET)

        movers = d.pop("movers", UNSET)

        rounds = d.pop("rounds", UNSET)

        table_max = d.pop("table_max", UNSET)

        table_min = d.pop("table_min", UNSET)

        turn_hours = d.pop("turn_hours", UNSET)

        league_create_request = cls(
            maps=maps,
            name=name,
            division_size=division_size,
            movers=movers,
            rounds=rounds,
            table_max=table_max,
            table_min=table_min,
            turn_hours=turn_hours,
        )

        return league_create_request
