from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PassWhenNothingPlan")


@_attrs_define
class PassWhenNothingPlan:
    """
    Attributes:
        kind (Literal['pass_when_nothing']):
    """

    kind: Literal["pass_when_nothing"]

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["pass_when_nothing"], d.pop("kind"))
        if kind != "pass_when_nothing":
            raise ValueError(f"kind must match const 'pass_when_nothing', got '{kind}'")

        pass_when_nothing_plan = cls(
            kind=kind,
        )

        return pass_when_nothing_plan
