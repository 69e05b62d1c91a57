from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="AutoPassPlan")


@_attrs_define
class AutoPassPlan:
    """
    Attributes:
        kind (Literal['auto_pass']):
        round_ (int): The round it is for (set by the server).
    """

    kind: Literal["auto_pass"]
    round_: int

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["auto_pass"], d.pop("kind"))
        if kind != "auto_pass":
            raise ValueError(f"kind must match const 'auto_pass', got '{kind}'")

        round_ = d.pop("round")

        auto_pass_plan = cls(
            kind=kind,
            round_=round_,
        )

        return auto_pass_plan
