from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.map_area import MapArea
    from ..models.map_city import MapCity
    from ..models.map_connection import MapConnection
    from ..models.map_rules import MapRules
    from ..models.viewbox import Viewbox


T = TypeVar("T", bound="Map")


@_attrs_define
class Map:
    """
    Attributes:
        areas (list[MapArea]):
        cities (list[MapCity]):
        connections (list[MapConnection]):
        name_en (str):
        name_ja (str):
        required_areas (list[str]):
        rules (MapRules): What differs from the base game's set-up on this map (France, Italy: seed 002).
        slug (str):
        viewbox (Viewbox):
    """

    areas: list[MapArea]
    cities: list[MapCity]
    connections: list[MapConnection]
    name_en: str
    name_ja: str
    required_areas: list[str]
    rules: MapRules
    slug: str
    viewbox: Viewbox

    def to_dict(self) -> dict[str, Any]:
        areas = []
        for areas_item_data in self.areas:
            areas_item = areas_item_data.to_dict()
            areas.append(areas_item)

        cities = []
        for cities_item_data in self.cities:
            cities_item = cities_item_data.to_dict()
            cities.append(cities_item)

        connections = []
        for connections_item_data in self.connections:
            connections_item = connections_item_data.to_dict()
            connections.append(connections_item)

        name_en = self.name_en

        name_ja = self.name_ja

        required_areas = self.required_areas

        rules = self.rules.to_dict()

        slug = self.slug

        viewbox = self.viewbox.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "areas": areas,
                "cities": cities,
                "connections": connections,
                "name_en": name_en,
                "name_ja": name_ja,
                "required_areas": required_areas,
                "rules": rules,
                "slug": slug,
                "viewbox": viewbox,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.map_area import MapArea  # noqa: PLC0415
        from ..models.map_city import MapCity  # noqa: PLC0415
        from ..models.map_connection import MapConnection  # noqa: PLC0415
        from ..models.map_rules import MapRules  # noqa: PLC0415
        from ..models.viewbox import Viewbox  # noqa: PLC0415

        d = dict(src_dict)
        areas = []
        _areas = d.pop("areas")
        for areas_item_data in _areas:
            areas_item = MapArea.from_dict(areas_item_data)

            areas.append(areas_item)

        cities = []
        _cities = d.pop("cities")
        for cities_item_data in _cities:
            cities_item = MapCity.from_dict(cities_item_data)

            cities.append(cities_item)

        connections = []
        _connections = d.pop("connections")
        for connections_item_data in _connections:
            connections_item = MapConnection.from_dict(connections_item_data)

            connections.append(connections_item)

        name_en = d.pop("name_en")

        name_ja = d.pop("name_ja")

        required_areas = cast(list[str], d.pop("required_areas"))

        rules = MapRules.from_dict(d.pop("rules"))

        slug = d.pop("slug")

        viewbox = Viewbox.from_dict(d.pop("viewbox"))

        map_ = cls(
            areas=areas,
            cities=cities,
            connections=connections,
            name_en=name_en,
            name_ja=name_ja,
            required_areas=required_areas,
            rules=rules,
            slug=slug,
            viewbox=viewbox,
        )

        return map_
