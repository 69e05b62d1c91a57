from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Vacation")


@_attrs_define
class Vacation:
    """The caller's vacation: while on it, their turn clocks stop (days counted against a yearly allowance).

    Attributes:
        days_left (int):
        days_per_year (int):
        days_used (int): Days taken this year (unused days of one ended early back).
        on (bool):
        until (datetime.datetime | None): When the vacation ends (null when not on one).
        year (int): The year the allowance is counted in.
    """

    days_left: int
    days_per_year: int
    days_used: int
    on: bool
    until: datetime.datetime | None
    year: int

    def to_dict(self) -> dict[str, Any]:
        days_left = self.days_left

        days_per_year = self.days_per_year

        days_used = self.days_used

        on = self.on

        until: None | str
        if isinstance(self.until, datetime.datetime):
            until = self.until.isoformat()
        else:
            until = self.until

        year = self.year

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "days_left": days_left,
                "days_per_year": days_per_year,
                "days_used": days_used,
                "on": on,
                "until": until,
                "year": year,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        days_left = d.pop("days_left")

        days_per_year = d.pop("days_per_year")

        days_used = d.pop("days_used")

        on = d.pop("on")

        def _parse_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                until_type_0 = datetime.datetime.fromisoformat(data)

                return until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        until = _parse_until(d.pop("until"))

        year = d.pop("year")

        vacation = cls(
            days_left=days_left,
            days_per_year=days_per_year,
            days_used=days_used,
            on=on,
            until=until,
            year=year,
        )

        return vacation
