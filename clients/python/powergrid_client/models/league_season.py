from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.league_division import LeagueDivision


T = TypeVar("T", bound="LeagueSeason")


@_attrs_define
class LeagueSeason:
    """A season: a page of its divisions (`results`, the top first; `count`: all of them), each with its standings and who
    moves up and down.

        Attributes:
            count (int): How many the whole list holds.
            final (bool): true once every division's last round ended.
            finished_at (datetime.datetime | None):
            league (int):
            next_ (None | str): The next page's URL; null: this is the last.
            number (int):
            previous (None | str): The previous page's URL; null: this is the first.
            results (list[LeagueDivision]):
            started_at (datetime.datetime):
    """

    count: int
    final: bool
    finished_at: datetime.datetime | None
    league: int
    next_: None | str
    number: int
    previous: None | str
    results: list[LeagueDivision]
    started_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        final = self.final

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        league = self.league

        next_: None | str
        next_ = self.next_

        number = self.number

        previous: None | str
        previous = self.previous

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        started_at = self.started_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "count": count,
                "final": final,
                "finished_at": finished_at,
                "league": league,
                "next": next_,
                "number": number,
                "previous": previous,
                "results": results,
                "started_at": started_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.league_division import LeagueDivision  # noqa: PLC0415

        d = dict(src_dict)
        count = d.pop("count")

        final = d.pop("final")

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

        league = d.pop("league")

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        number = d.pop("number")

        def _parse_previous(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous = _parse_previous(d.pop("previous"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = LeagueDivision.from_dict(results_item_data)

            results.append(results_item)

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        league_season = cls(
            count=count,
            final=final,
            finished_at=finished_at,
            league=league,
            next_=next_,
            number=number,
            previous=previous,
            results=results,
            started_at=started_at,
        )

        return league_season
