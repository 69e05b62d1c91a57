from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="BuildPlan")


@_attrs_define
class BuildPlan:
    """
    Attributes:
        cities (list[str]): City slugs, built in the cheapest order.
        kind (Literal['build']):
        max_total (int): Build only if all of them cost at most this in total.
        round_ (int):
    """

    cities: list[str]
    kind: Literal["build"]
    max_total: int
    round_: int

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        kind = self.kind

        max_total = self.max_total

        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "kind": kind,
                "max_total": max_total,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cities = cast(list[str], d.pop("cities"))

        kind = cast(Literal["build"], d.pop("kind"))
        if kind != "build":
            raise ValueError(f"kind must match const 'build', got '{kind}'")

        max_total = d.pop("max_total")

        round_ = d.pop("round")

        build_plan = cls(
            cities=cities,
            kind=kind,
            max_total=max_total,
            round_=round_,
        )

        return build_plan
