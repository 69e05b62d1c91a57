from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PowerPlan")


@_attrs_define
class PowerPlan:
    """
    Attributes:
        kind (Literal['power']):
        round_ (int):
    """

    kind: Literal["power"]
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
        kind = cast(Literal["power"], d.pop("kind"))
        if kind != "power":
            raise ValueError(f"kind must match const 'power', got '{kind}'")

        round_ = d.pop("round")

        power_plan = cls(
            kind=kind,
            round_=round_,
        )

        return power_plan
