from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TournamentEntrant")


@_attrs_define
class TournamentEntrant:
    """
    Attributes:
        dropped (bool):
        name (str):
        username (str):
    """

    dropped: bool
    name: str
    username: str

    def to_dict(self) -> dict[str, Any]:
        dropped = self.dropped

        name = self.name

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dropped": dropped,
                "name": name,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dropped = d.pop("dropped")

        name = d.pop("name")

        username = d.pop("username")

        tournament_entrant = cls(
            dropped=dropped,
            name=name,
            username=username,
        )

        return tournament_entrant
