from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LoggedBuild")


@_attrs_define
class LoggedBuild:
    """Phase 4: build in cities, charged at the cheapest allowed order.

    Attributes:
        cities (list[str]): City slugs.
        type_ (Literal['build']):
    """

    cities: list[str]
    type_: Literal["build"]

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cities = cast(list[str], d.pop("cities"))

        type_ = cast(Literal["build"], d.pop("type"))
        if type_ != "build":
            raise ValueError(f"type must match const 'build', got '{type_}'")

        logged_build = cls(
            cities=cities,
            type_=type_,
        )

        return logged_build
