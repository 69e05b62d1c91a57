from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlanMove")


@_attrs_define
class PlanMove:
    """A move your plan made at once, as the move log describes it.

    Attributes:
        seq (int): The move's number in the log (GET .../moves/ has its action).
        text (str): What it did, in words (English, as the API speaks; the game page's log says the same): e.g. "Anna
            bid 23 for plant 10."
    """

    seq: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seq": seq,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seq = d.pop("seq")

        text = d.pop("text")

        plan_move = cls(
            seq=seq,
            text=text,
        )

        return plan_move
