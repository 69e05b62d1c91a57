from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.tournament_table import TournamentTable


T = TypeVar("T", bound="TournamentRoundTables")


@_attrs_define
class TournamentRoundTables:
    """One round: a page of its tables (`results`, by number; `count`: all of them) and its byes.

    Attributes:
        byes (list[str]): Usernames sitting the round out (a bye: 60 points).
        count (int): How many the whole list holds.
        finished_at (datetime.datetime | None):
        next_ (None | str): The next page's URL; null: this is the last.
        number (int):
        previous (None | str): The previous page's URL; null: this is the first.
        results (list[TournamentTable]):
        started_at (datetime.datetime):
    """

    byes: list[str]
    count: int
    finished_at: datetime.datetime | None
    next_: None | str
    number: int
    previous: None | str
    results: list[TournamentTable]
    started_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        byes = self.byes

        count = self.count

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

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
                "byes": byes,
                "count": count,
                "finished_at": finished_at,
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
        from ..models.tournament_table import TournamentTable  # noqa: PLC0415

        d = dict(src_dict)
        byes = cast(list[str], d.pop("byes"))

        count = d.pop("count")

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
            results_item = TournamentTable.from_dict(results_item_data)

            results.append(results_item)

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        tournament_round_tables = cls(
            byes=byes,
            count=count,
            finished_at=finished_at,
            next_=next_,
            number=number,
            previous=previous,
            results=results,
            started_at=started_at,
        )

        return tournament_round_tables
