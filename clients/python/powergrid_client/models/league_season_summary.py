from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LeagueSeasonSummary")


@_attrs_define
class LeagueSeasonSummary:
    """A season as the league lists it: its divisions are counted, and read a page at a time (with their standings) from
    `/api/v1/leagues/{id}/seasons/{number}/`.

        Attributes:
            divisions_count (int): How many divisions the season plays.
            finished_at (datetime.datetime | None):
            number (int):
            started_at (datetime.datetime):
            your_division (int | None): Your division in the season (1 to `divisions_count`, the top first, in the order the
                season's pages list them, so `?offset=` one less than it opens a page with it); null if you did not play in it.
    """

    divisions_count: int
    finished_at: datetime.datetime | None
    number: int
    started_at: datetime.datetime
    your_division: int | None

    def to_dict(self) -> dict[str, Any]:
        divisions_count = self.divisions_count

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        number = self.number

        started_at = self.started_at.isoformat()

        your_division: int | None
        your_division = self.your_division

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "divisions_count": divisions_count,
                "finished_at": finished_at,
                "number": number,
                "started_at": started_at,
                "your_division": your_division,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        divisions_count = d.pop("divisions_count")

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        number = d.pop("number")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        def _parse_your_division(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        your_division = _parse_your_division(d.pop("your_division"))

        league_season_summary = cls(
            divisions_count=divisions_count,
            finished_at=finished_at,
            number=number,
            started_at=started_at,
            your_division=your_division,
        )

        return league_season_summary
