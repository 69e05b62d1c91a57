from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.build_action_type_enum import BuildActionTypeEnum

T = TypeVar("T", bound="BuildActionRequest")


@_attrs_define
class BuildActionRequest:
    """Phase 4: build in cities, charged at the cheapest allowed order.

    Attributes:
        cities (list[str]): City slugs.
        type_ (BuildActionTypeEnum): * `build` - build
    """

    cities: list[str]
    type_: BuildActionTypeEnum

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        type_ = self.type_.value

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

        type_ = BuildActionTypeEnum(d.pop("type"))

        build_action_request = cls(
            cities=cities,
            type_=type_,
        )

        return build_action_request
