from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LeagueSummary")


@_attrs_define
class LeagueSummary:
    """A league as lists show it.

    Attributes:
        created_at (datetime.datetime):
        director (str):
        division_size (int): The most members a division holds.
        id (int):
        maps (list[str]):
        members (int): How many members: `/api/v1/leagues/{id}/players/`.
        movers (int): At a season's end the top `movers` of a division go up, the bottom down (at least 1, at most half
            of `division_size`).
        name (str):
        rounds (int): Rounds each season plays (each member once a round).
        season (int): The running or last season's number; 0: none yet.
        season_running (bool):
        table_max (int):
        table_min (int):
        turn_hours (int):
    """

    created_at: datetime.datetime
    director: str
    division_size: int
    id: int
    maps: list[str]
    members: int
    movers: int
    name: str
    rounds: int
    season: int
    season_running: bool
    table_max: int
    table_min: int
    turn_hours: int

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        director = self.director

        division_size = self.division_size

        id = self.id

        maps = self.maps

        members = self.members

        movers = self.movers

        name = self.name

        rounds = self.rounds

        season = self.season

        season_running = self.season_running

        table_max = self.table_max

        table_min = self.table_min

        turn_hours = self.turn_hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "director": director,
                "division_size": division_size,
                "id": id,
                "maps": maps,
                "members": members,
                "movers": movers,
                "name": name,
                "rounds": rounds,
                "season": season,
                "season_running": season_running,
                "table_max": table_max,
                "table_min": table_min,
                "turn_hours": turn_hours,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        director = d.pop("director")

        division_size = d.pop("division_size")

        id = d.pop("id")

        maps = cast(list[str], d.pop("maps"))

        members = d.pop("members")

        movers = d.pop("movers")

        name = d.pop("name")

        rounds = d.pop("rounds")

        season = d.pop("season")

        season_running = d.pop("season_running")

        table_max = d.pop("table_max")

        table_min = d.pop("table_min")

        turn_hours = d.pop("turn_hours")

        league_summary = cls(
            created_at=created_at,
            director=director,
            division_size=division_size,
            id=id,
            maps=maps,
            members=members,
            movers=movers,
            name=name,
            rounds=rounds,
            season=season,
            season_running=season_running,
            table_max=table_max,
            table_min=table_min,
            turn_hours=turn_hours,
        )

        return league_summary
