from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MapConnection")


@_attrs_define
class MapConnection:
    """
    Attributes:
        a (str):
        b (str):
        cost (int):
    """

    a: str
    b: str
    cost: int

    def to_dict(self) -> dict[str, Any]:
        a = self.a

        b = self.b

        cost = self.cost

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "a": a,
                "b": b,
                "cost": cost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        a = d.pop("a")

        b = d.pop("b")

        cost = d.pop("cost")

        map_connection = cls(
            a=a,
            b=b,
            cost=cost,
        )

        return map_connection
