from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TournamentLeague")


@_attrs_define
class TournamentLeague:
    """The league a division's tournament belongs to.

    Attributes:
        division (int): 1: the top division.
        id (int): The league: `/api/v1/leagues/{id}/`.
        name (str):
        season (int):
    """

    division: int
    id: int
    name: str
    season: int

    def to_dict(self) -> dict[str, Any]:
        division = self.division

        id = self.id

        name = self.name

        season = self.season

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "division": division,
                "id": id,
                "name": name,
                "season": season,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        division = d.pop("division")

        id = d.pop("id")

        name = d.pop("name")

        season = d.pop("season")

        tournament_league = cls(
            division=division,
            id=id,
            name=name,
            season=season,
        )

        return tournament_league
