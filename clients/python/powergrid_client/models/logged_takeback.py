from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LoggedTakeback")


@_attrs_define
class LoggedTakeback:
    """A take-back: the moves it cancels (their seqs, oldest first: the latest that stood) and the seats that agreed
    (empty: taken back alone). See docs/API.md, Take-backs.

        Attributes:
            accepted_by (list[int]):
            cancels (list[int]):
            type_ (Literal['takeback']):
    """

    accepted_by: list[int]
    cancels: list[int]
    type_: Literal["takeback"]

    def to_dict(self) -> dict[str, Any]:
        accepted_by = self.accepted_by

        cancels = self.cancels

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted_by": accepted_by,
                "cancels": cancels,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accepted_by = cast(list[int], d.pop("accepted_by"))

        cancels = cast(list[int], d.pop("cancels"))

        type_ = cast(Literal["takeback"], d.pop("type"))
        if type_ != "takeback":
            raise ValueError(f"type must match const 'takeback', got '{type_}'")

        logged_takeback = cls(
            accepted_by=accepted_by,
            cancels=cancels,
            type_=type_,
        )

        return logged_takeback
