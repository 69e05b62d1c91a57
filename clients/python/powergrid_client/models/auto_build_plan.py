from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="AutoBuildPlan")


@_attrs_define
class AutoBuildPlan:
    """
    Attributes:
        kind (Literal['auto_build']):
        max_total (int): The cheapest cities next to your network, up to this total.
        round_ (int):
    """

    kind: Literal["auto_build"]
    max_total: int
    round_: int

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        max_total = self.max_total

        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "max_total": max_total,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["auto_build"], d.pop("kind"))
        if kind != "auto_build":
            raise ValueError(f"kind must match const 'auto_build', got '{kind}'")

        max_total = d.pop("max_total")

        round_ = d.pop("round")

        auto_build_plan = cls(
            kind=kind,
            max_total=max_total,
            round_=round_,
        )

        return auto_build_plan
