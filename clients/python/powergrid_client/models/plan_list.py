from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.auto_build_plan import AutoBuildPlan
    from ..models.auto_pass_plan import AutoPassPlan
    from ..models.build_plan import BuildPlan
    from ..models.buy_plan import BuyPlan
    from ..models.fuel_plan import FuelPlan
    from ..models.open_plan import OpenPlan
    from ..models.pass_when_nothing_plan import PassWhenNothingPlan
    from ..models.power_plan import PowerPlan
    from ..models.proxy_bid_plan import ProxyBidPlan


T = TypeVar("T", bound="PlanList")


@_attrs_define
class PlanList:
    """
    Attributes:
        plans (list[AutoBuildPlan | AutoPassPlan | BuildPlan | BuyPlan | FuelPlan | OpenPlan | PassWhenNothingPlan |
            PowerPlan | ProxyBidPlan]):
    """

    plans: list[
        AutoBuildPlan
        | AutoPassPlan
        | BuildPlan
        | BuyPlan
        | FuelPlan
        | OpenPlan
        | PassWhenNothingPlan
        | PowerPlan
        | ProxyBidPlan
    ]

    def to_dict(self) -> dict[str, Any]:
        from ..models.auto_pass_plan import AutoPassPlan  # noqa: PLC0415
        from ..models.build_plan import BuildPlan  # noqa: PLC0415
        from ..models.buy_plan import BuyPlan  # noqa: PLC0415
        from ..models.fuel_plan import FuelPlan  # noqa: PLC0415
        from ..models.open_plan import OpenPlan  # noqa: PLC0415
        from ..models.pass_when_nothing_plan import PassWhenNothingPlan  # noqa: PLC0415
        from ..models.power_plan import PowerPlan  # noqa: PLC0415
        from ..models.proxy_bid_plan import ProxyBidPlan  # noqa: PLC0415

        plans = []
        for plans_item_data in self.plans:
            plans_item: dict[str, Any]
            if isinstance(plans_item_data, ProxyBidPlan):
                plans_item = plans_item_data.to_dict()
            elif isinstance(plans_item_data, AutoPassPlan):
                plans_item = plans_item_data.to_dict()
            elif isinstance(plans_item_data, PassWhenNothingPlan):
                plans_item = plans_item_data.to_dict()
            elif isinstance(plans_item_data, BuyPlan):
                plans_item = plans_item_data.to_dict()
            elif isinstance(plans_item_data, BuildPlan):
                plans_item = plans_item_data.to_dict()
            elif isinstance(plans_item_data, PowerPlan):
                plans_item = plans_item_data.to_dict()
            elif isinstance(plans_item_data, OpenPlan):
                plans_item = plans_item_data.to_dict()
            elif isinstance(plans_item_data, FuelPlan):
                plans_item = plans_item_data.to_dict()
            else:
                plans_item = plans_item_data.to_dict()

            plans.append(plans_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "plans": plans,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.auto_build_plan import AutoBuildPlan  # noqa: PLC0415
        from ..models.auto_pass_plan import AutoPassPlan  # noqa: PLC0415
        from ..models.build_plan import BuildPlan  # noqa: PLC0415
        from ..models.buy_plan import BuyPlan  # noqa: PLC0415
        from ..models.fuel_plan import FuelPlan  # noqa: PLC0415
        from ..models.open_plan import OpenPlan  # noqa: PLC0415
        from ..models.pass_when_nothing_plan import PassWhenNothingPlan  # noqa: PLC0415
        from ..models.power_plan import PowerPlan  # noqa: PLC0415
        from ..models.proxy_bid_plan import ProxyBidPlan  # noqa: PLC0415

        d = dict(src_dict)
        plans = []
        _plans = d.pop("plans")
        for plans_item_data in _plans:

            def _parse_plans_item(
                data: object,
            ) -> (
                AutoBuildPlan
                | AutoPassPlan
                | BuildPlan
                | BuyPlan
                | FuelPlan
                | OpenPlan
                | PassWhenNothingPlan
                | PowerPlan
                | ProxyBidPlan
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_0 = ProxyBidPlan.from_dict(data)

                    return componentsschemas_plan_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_1 = AutoPassPlan.from_dict(data)

                    return componentsschemas_plan_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_2 = PassWhenNothingPlan.from_dict(data)

                    return componentsschemas_plan_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_3 = BuyPlan.from_dict(data)

                    return componentsschemas_plan_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_4 = BuildPlan.from_dict(data)

                    return componentsschemas_plan_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_5 = PowerPlan.from_dict(data)

                    return componentsschemas_plan_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_6 = OpenPlan.from_dict(data)

                    return componentsschemas_plan_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_plan_type_7 = FuelPlan.from_dict(data)

                    return componentsschemas_plan_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_plan_type_8 = AutoBuildPlan.from_dict(data)

                return componentsschemas_plan_type_8

            plans_item = _parse_plans_item(plans_item_data)

            plans.append(plans_item)

        plan_list = cls(
            plans=plans,
        )

        return plan_list
