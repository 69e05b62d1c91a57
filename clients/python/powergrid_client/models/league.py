from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.league_season_summary import LeagueSeasonSummary


T = TypeVar("T", bound="League")


@_attrs_define
class League:
    """A league with its seasons, each with its number of divisions. Its members (`members` of them) are paged at
    `/api/v1/leagues/{id}/players/`, a season's divisions at `/api/v1/leagues/{id}/seasons/{number}/`: the answer does
    not grow with the members.

        Attributes:
            created_at (datetime.datetime):
            director (str):
            division_size (int): The most members a division holds.
            id (int):
            maps (list[str]):
            member (bool): Whether you are a member.
            members (int): How many members: `/api/v1/leagues/{id}/players/`.
            movers (int): At a season's end the top `movers` of a division go up, the bottom down (at least 1, at most half
                of `division_size`).
            name (str):
            rounds (int): Rounds each season plays (each member once a round).
            season (int): The running or last season's number; 0: none yet.
            season_running (bool):
            seasons (list[LeagueSeasonSummary]):
            table_max (int):
            table_min (int):
            turn_hours (int):
    """

    created_at: datetime.datetime
    director: str
    division_size: int
    id: int
    maps: list[str]
    member: bool
    members: int
    movers: int
    name: str
    rounds: int
    season: int
    season_running: bool
    seasons: list[LeagueSeasonSummary]
    table_max: int
    table_min: int
    turn_hours: int

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        director = self.director

        division_size = self.division_size

        id = self.id

        maps = self.maps

        member = self.member

        members = self.members

        movers = self.movers

        name = self.name

        rounds = self.rounds

        season = self.season

        season_running = self.season_running

        seasons = []
        for seasons_item_data in self.seasons:
            seasons_item = seasons_item_data.to_dict()
            seasons.append(seasons_item)

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
                "member": member,
                "members": members,
                "movers": movers,
                "name": name,
                "rounds": rounds,
                "season": season,
                "season_running": season_running,
                "seasons": seasons,
                "table_max": table_max,
                "table_min": table_min,
                "turn_hours": turn_hours,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.league_season_summary import LeagueSeasonSummary  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        director = d.pop("director")

        division_size = d.pop("division_size")

        id = d.pop("id")

        maps = cast(list[str], d.pop("maps"))

        member = d.pop("member")

        members = d.pop("members")

        movers = d.pop("movers")

        name = d.pop("name")

        rounds = d.pop("rounds")

        season = d.pop("season")

        season_running = d.pop("season_running")

        seasons = []
        _seasons = d.pop("seasons")
        for seasons_item_data in _seasons:
            seasons_item = LeagueSeasonSummary.from_dict(seasons_item_data)

            seasons.append(seasons_item)

        table_max = d.pop("table_max")

        table_min = d.pop("table_min")

        turn_hours = d.pop("turn_hours")

        league = cls(
            created_at=created_at,
            director=director,
            division_size=division_size,
            id=id,
            maps=maps,
            member=member,
            members=members,
            movers=movers,
            name=name,
            rounds=rounds,
            season=season,
            season_running=season_running,
            seasons=seasons,
            table_max=table_max,
            table_min=table_min,
            turn_hours=turn_hours,
        )

        return league
