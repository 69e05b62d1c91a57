from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.build_move_cities import BuildMoveCities


T = TypeVar("T", bound="BuildMove")


@_attrs_define
class BuildMove:
    """
    Attributes:
        cities (BuildMoveCities): Every city the caller could add now, with its cost if added alone.
        type_ (Literal['build']):
    """

    cities: BuildMoveCities
    type_: Literal["build"]

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities.to_dict()

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
        from ..models.build_move_cities import BuildMoveCities  # noqa: PLC0415

        d = dict(src_dict)
        cities = BuildMoveCities.from_dict(d.pop("cities"))

        type_ = cast(Literal["build"], d.pop("type"))
        if type_ != "build":
            raise ValueError(f"type must match const 'build', got '{type_}'")

        build_move = cls(
            cities=cities,
            type_=type_,
        )

        return build_move
