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
    from ..models.plan_move import PlanMove
    from ..models.power_plan import PowerPlan
    from ..models.proxy_bid_plan import ProxyBidPlan


T = TypeVar("T", bound="PlanSet")


@_attrs_define
class PlanSet:
    """
    Attributes:
        acted (list[PlanMove]): What your plan did at once, one entry per move it made for your seat (each seq once: a
            move the log tells in several lines is one entry, its lines joined; empty when it waits for your turn): set
            during your own turn, a plan that holds acts before the answer.
        moves_made (int): Moves the plans made at once (0 when it waits its turn).
        plan (AutoBuildPlan | AutoPassPlan | BuildPlan | BuyPlan | FuelPlan | OpenPlan | PassWhenNothingPlan | PowerPlan
            | ProxyBidPlan):
        seq (int): The game's seq after them.
    """

    acted: list[PlanMove]
    moves_made: int
    plan: (
        AutoBuildPlan
        | AutoPassPlan
        | BuildPlan
        | BuyPlan
        | FuelPlan
        | OpenPlan
        | PassWhenNothingPlan
        | PowerPlan
        | ProxyBidPlan
    )
    seq: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.auto_pass_plan import AutoPassPlan  # noqa: PLC0415
        from ..models.build_plan import BuildPlan  # noqa: PLC0415
        from ..models.buy_plan import BuyPlan  # noqa: PLC0415
        from ..models.fuel_plan import FuelPlan  # noqa: PLC0415
        from ..models.open_plan import OpenPlan  # noqa: PLC0415
        from ..models.pass_when_nothing_plan import PassWhenNothingPlan  # noqa: PLC0415
        from ..models.power_plan import PowerPlan  # noqa: PLC0415
        from ..models.proxy_bid_plan import ProxyBidPlan  # noqa: PLC0415

        acted = []
        for acted_item_data in self.acted:
            acted_item = acted_item_data.to_dict()
            acted.append(acted_item)

        moves_made = self.moves_made

        plan: dict[str, Any]
        if isinstance(self.plan, ProxyBidPlan):
            plan = self.plan.to_dict()
        elif isinstance(self.plan, AutoPassPlan):
            plan = self.plan.to_dict()
        elif isinstance(self.plan, PassWhenNothingPlan):
            plan = self.plan.to_dict()
        elif isinstance(self.plan, BuyPlan):
            plan = self.plan.to_dict()
        elif isinstance(self.plan, BuildPlan):
            plan = self.plan.to_dict()
        elif isinstance(self.plan, PowerPlan):
            plan = self.plan.to_dict()
        elif isinstance(self.plan, OpenPlan):
            plan = self.plan.to_dict()
        elif isinstance(self.plan, FuelPlan):
            plan = self.plan.to_dict()
        else:
            plan = self.plan.to_dict()

        seq = self.seq

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "acted": acted,
                "moves_made": moves_made,
                "plan": plan,
                "seq": seq,
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
        from ..models.plan_move import PlanMove  # noqa: PLC0415
        from ..models.power_plan import PowerPlan  # noqa: PLC0415
        from ..models.proxy_bid_plan import ProxyBidPlan  # noqa: PLC0415

        d = dict(src_dict)
        acted = []
        _acted = d.pop("acted")
        for acted_item_data in _acted:
            acted_item = PlanMove.from_dict(acted_item_data)

            acted.append(acted_item)

        moves_made = d.pop("moves_made")

        def _parse_plan(
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

        plan = _parse_plan(d.pop("plan"))

        seq = d.pop("seq")

        plan_set = cls(
            acted=acted,
            moves_made=moves_made,
            plan=plan,
            seq=seq,
        )

        return plan_set
