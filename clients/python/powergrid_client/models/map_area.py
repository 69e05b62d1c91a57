from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MapArea")


@_attrs_define
class MapArea:
    """
    Attributes:
        name_en (str):
        name_ja (str):
        slug (str):
    """

    name_en: str
    name_ja: str
    slug: str

    def to_dict(self) -> dict[str, Any]:
        name_en = self.name_en

        name_ja = self.name_ja

        slug = self.slug

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name_en": name_en,
                "name_ja": name_ja,
                "slug": slug,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name_en = d.pop("name_en")

        name_ja = d.pop("name_ja")

        slug = d.pop("slug")

        map_area = cls(
            name_en=name_en,
            name_ja=name_ja,
            slug=slug,
        )

        return map_area
