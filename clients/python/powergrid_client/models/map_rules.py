from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.map_rules_cheapest_price import MapRulesCheapestPrice
    from ..models.map_rules_starting_market import MapRulesStartingMarket


T = TypeVar("T", bound="MapRules")


@_attrs_define
class MapRules:
    """What differs from the base game's set-up on this map (France, Italy: seed 002).

    Attributes:
        cheapest_price (MapRulesCheapestPrice): The price of the cheapest token of each resource at the start.
        notes (list[str]): The rules in words.
        removed_plants (list[int]): Plants out of the game on this map in games started now (the latest rules edition:
            none on any map; France's 13 is an ordinary card).
        required_areas (list[str]):
        starting_market (MapRulesStartingMarket): Tokens in each resource market at the start.
        top_plant (int): The plant on top of the deck (13 usually).
    """

    cheapest_price: MapRulesCheapestPrice
    notes: list[str]
    removed_plants: list[int]
    required_areas: list[str]
    starting_market: MapRulesStartingMarket
    top_plant: int

    def to_dict(self) -> dict[str, Any]:
        cheapest_price = self.cheapest_price.to_dict()

        notes = self.notes

        removed_plants = self.removed_plants

        required_areas = self.required_areas

        starting_market = self.starting_market.to_dict()

        top_plant = self.top_plant

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cheapest_price": cheapest_price,
                "notes": notes,
                "removed_plants": removed_plants,
                "required_areas": required_areas,
                "starting_market": starting_market,
                "top_plant": top_plant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.map_rules_cheapest_price import MapRulesCheapestPrice  # noqa: PLC0415
        from ..models.map_rules_starting_market import MapRulesStartingMarket  # noqa: PLC0415

        d = dict(src_dict)
        cheapest_price = MapRulesCheapestPrice.from_dict(d.pop("cheapest_price"))

        notes = cast(list[str], d.pop("notes"))

        removed_plants = cast(list[int], d.pop("removed_plants"))

        required_areas = cast(list[str], d.pop("required_areas"))

        starting_market = MapRulesStartingMarket.from_dict(d.pop("starting_market"))

        top_plant = d.pop("top_plant")

        map_rules = cls(
            cheapest_price=cheapest_price,
            notes=notes,
            removed_plants=removed_plants,
            required_areas=required_areas,
            starting_market=starting_market,
            top_plant=top_plant,
        )

        return map_rules
