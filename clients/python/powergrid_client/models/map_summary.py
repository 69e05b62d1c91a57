from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.map_area import MapArea
    from ..models.map_rules import MapRules


T = TypeVar("T", bound="MapSummary")


@_attrs_define
class MapSummary:
    """
    Attributes:
        areas (list[MapArea]):
        name_en (str):
        name_ja (str):
        required_areas (list[str]):
        rules (MapRules): What differs from the base game's set-up on this map (France, Italy: seed 002).
        slug (str):
    """

    areas: list[MapArea]
    name_en: str
    name_ja: str
    required_areas: list[str]
    rules: MapRules
    slug: str

    def to_dict(self) -> dict[str, Any]:
        areas = []
        for areas_item_data in self.areas:
            areas_item = areas_item_data.to_dict()
            areas.append(areas_item)

        name_en = self.name_en

        name_ja = self.name_ja

        required_areas = self.required_areas

        rules = self.rules.to_dict()

        slug = self.slug

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "areas": areas,
                "name_en": name_en,
                "name_ja": name_ja,
                "required_areas": required_areas,
                "rules": rules,
                "slug": slug,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.map_area import MapArea  # noqa: PLC0415
        from ..models.map_rules import MapRules  # noqa: PLC0415

        d = dict(src_dict)
        areas = []
        _areas = d.pop("areas")
        for areas_item_data in _areas:
            areas_item = MapArea.from_dict(areas_item_data)

            areas.append(areas_item)

        name_en = d.pop("name_en")

        name_ja = d.pop("name_ja")

        required_areas = cast(list[str], d.pop("required_areas"))

        rules = MapRules.from_dict(d.pop("rules"))

        slug = d.pop("slug")

        map_summary = cls(
            areas=areas,
            name_en=name_en,
            name_ja=name_ja,
            required_areas=required_areas,
            rules=rules,
            slug=slug,
        )

        return map_summary
