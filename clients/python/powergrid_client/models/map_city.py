from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MapCity")


@_attrs_define
class MapCity:
    """
    Attributes:
        area (str):
        name_en (str):
        name_ja (str):
        slug (str):
        x (float):
        y (float):
    """

    area: str
    name_en: str
    name_ja: str
    slug: str
    x: float
    y: float

    def to_dict(self) -> dict[str, Any]:
        area = self.area

        name_en = self.name_en

        name_ja = self.name_ja

        slug = self.slug

        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "area": area,
                "name_en": name_en,
                "name_ja": name_ja,
                "slug": slug,
                "x": x,
                "y": y,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        area = d.pop("area")

        name_en = d.pop("name_en")

        name_ja = d.pop("name_ja")

        slug = d.pop("slug")

        x = d.pop("x")

        y = d.pop("y")

        map_city = cls(
            area=area,
            name_en=name_en,
            name_ja=name_ja,
            slug=slug,
            x=x,
            y=y,
        )

        return map_city
