from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="TakebackEntry")


@_attrs_define
class TakebackEntry:
    """A take-back in the log: the move log shows it as an entry whose action is `{"type": "takeback", "cancels": [...],
    "accepted_by": [...]}`.

        Attributes:
            accepted_by (list[int]): The seats that agreed (empty: taken back alone).
            cancels (list[int]): The moves taken back (seqs), oldest first.
            seat (int): Whose moves were taken back.
            seq (int): The take-back's own number in the log.
    """

    accepted_by: list[int]
    cancels: list[int]
    seat: int
    seq: int

    def to_dict(self) -> dict[str, Any]:
        accepted_by = self.accepted_by

        cancels = self.cancels

        seat = self.seat

        seq = self.seq

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted_by": accepted_by,
                "cancels": cancels,
                "seat": seat,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accepted_by = cast(list[int], d.pop("accepted_by"))

        cancels = cast(list[int], d.pop("cancels"))

        seat = d.pop("seat")

        seq = d.pop("seq")

        takeback_entry = cls(
            accepted_by=accepted_by,
            cancels=cancels,
            seat=seat,
            seq=seq,
        )

        return takeback_entry
