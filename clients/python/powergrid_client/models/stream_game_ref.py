from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="StreamGameRef")


@_attrs_define
class StreamGameRef:
    """The game an event of its own is about, and its `seq` after the change.

    Attributes:
        id (int):
        seq (int):
    """

    id: int
    seq: int

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        seq = self.seq

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        seq = d.pop("seq")

        stream_game_ref = cls(
            id=id,
            seq=seq,
        )

        return stream_game_ref
