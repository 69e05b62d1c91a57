from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="TournamentRound")


@_attrs_define
class TournamentRound:
    """A round as the tournament lists it: its tables are counted, and read a page at a time from
    `/api/v1/tournaments/{id}/rounds/{number}/`.

        Attributes:
            finished_at (datetime.datetime | None):
            number (int):
            started_at (datetime.datetime):
            tables_count (int): How many tables the round seated.
    """

    finished_at: datetime.datetime | None
    number: int
    started_at: datetime.datetime
    tables_count: int

    def to_dict(self) -> dict[str, Any]:
        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        number = self.number

        started_at = self.started_at.isoformat()

        tables_count = self.tables_count

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "finished_at": finished_at,
                "number": number,
                "started_at": started_at,
                "tables_count": tables_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

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

        tables_count = d.pop("tables_count")

        tournament_round = cls(
            finished_at=finished_at,
            number=number,
            started_at=started_at,
            tables_count=tables_count,
        )

        return tournament_round
