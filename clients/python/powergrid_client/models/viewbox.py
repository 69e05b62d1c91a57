from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Viewbox")


@_attrs_define
class Viewbox:
    """
    Attributes:
        height (float):
        width (float):
    """

    height: float
    width: float

    def to_dict(self) -> dict[str, Any]:
        height = self.height

        width = self.width

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "height": height,
                "width": width,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        height = d.pop("height")

        width = d.pop("width")

        viewbox = cls(
            height=height,
            width=width,
        )

        return viewbox
