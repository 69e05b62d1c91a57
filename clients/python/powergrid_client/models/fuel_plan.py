from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="FuelPlan")


@_attrs_define
class FuelPlan:
    """
    Attributes:
        kind (Literal['fuel']):
        max_price (int): The fuel your plants need, each token at most this.
        round_ (int):
    """

    kind: Literal["fuel"]
    max_price: int
    round_: int

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        max_price = self.max_price

        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "max_price": max_price,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["fuel"], d.pop("kind"))
        if kind != "fuel":
            raise ValueError(f"kind must match const 'fuel', got '{kind}'")

        max_price = d.pop("max_price")

        round_ = d.pop("round")

        fuel_plan = cls(
            kind=kind,
            max_price=max_price,
            round_=round_,
        )

        return fuel_plan
