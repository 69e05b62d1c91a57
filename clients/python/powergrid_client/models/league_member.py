from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LeagueMember")


@_attrs_define
class LeagueMember:
    """
    Attributes:
        division (int | None): Their division in the running or last season.
        name (str):
        username (str):
        waiting (bool): Joined during the season: plays from the next one.
    """

    division: int | None
    name: str
    username: str
    waiting: bool

    def to_dict(self) -> dict[str, Any]:
        division: int | None
        division = self.division

        name = self.name

        username = self.username

        waiting = self.waiting

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "division": division,
                "name": name,
                "username": username,
                "waiting": waiting,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_division(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        division = _parse_division(d.pop("division"))

        name = d.pop("name")

        username = d.pop("username")

        waiting = d.pop("waiting")

        league_member = cls(
            division=division,
            name=name,
            username=username,
            waiting=waiting,
        )

        return league_member
