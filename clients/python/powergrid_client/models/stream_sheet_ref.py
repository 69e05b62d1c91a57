from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="StreamSheetRef")


@_attrs_define
class StreamSheetRef:
    """The round sheet asked: its round (`GET /api/v1/games/{id}/sheet/` reads it).

    Attributes:
        round_ (int):
    """

    round_: int

    def to_dict(self) -> dict[str, Any]:
        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        round_ = d.pop("round")

        stream_sheet_ref = cls(
            round_=round_,
        )

        return stream_sheet_ref
