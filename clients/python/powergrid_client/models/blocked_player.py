from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BlockedPlayer")


@_attrs_define
class BlockedPlayer:
    """
    Attributes:
        name (str): Their display name.
        since (datetime.datetime):
        username (str):
    """

    name: str
    since: datetime.datetime
    username: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        since = self.since.isoformat()

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "since": since,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        username = d.pop("username")

        blocked_player = cls(
            name=name,
            since=since,
            username=username,
        )

        return blocked_player
