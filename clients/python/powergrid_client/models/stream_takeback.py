from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StreamTakeback")


@_attrs_define
class StreamTakeback:
    """What a take-back concerns: the seat asking, the move numbers cancelled, whether the others agreed (`takeback`) or
    the request to answer (`takeback_asked`).

        Attributes:
            cancels (list[int]):
            seat (int):
            agreed (bool | Unset):
            request (int | Unset):
    """

    cancels: list[int]
    seat: int
    agreed: bool | Unset = UNSET
    request: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        cancels = self.cancels

        seat = self.seat

        agreed = self.agreed

        request = self.request

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cancels": cancels,
                "seat": seat,
            }
        )
        if agreed is not UNSET:
            field_dict["agreed"] = agreed
        if request is not UNSET:
            field_dict["request"] = request

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cancels = cast(list[int], d.pop("cancels"))

        seat = d.pop("seat")

        agreed = d.pop("agreed", UNSET)

        request = d.pop("request", UNSET)

        stream_takeback = cls(
            cancels=cancels,
            seat=seat,
            agreed=agreed,
            request=request,
        )

        return stream_takeback
