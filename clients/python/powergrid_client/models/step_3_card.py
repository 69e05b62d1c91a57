from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Step3Card")


@_attrs_define
class Step3Card:
    """The Step 3 card, while it sits in the plant market.

    Attributes:
        step3 (bool): Always `true`.
    """

    step3: bool

    def to_dict(self) -> dict[str, Any]:
        step3 = self.step3

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "step3": step3,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        step3 = d.pop("step3")

        step_3_card = cls(
            step3=step3,
        )

        return step_3_card
