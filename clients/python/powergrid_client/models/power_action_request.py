from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.power_action_type_enum import PowerActionTypeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.power_action_request_hybrid import PowerActionRequestHybrid


T = TypeVar("T", bound="PowerActionRequest")


@_attrs_define
class PowerActionRequest:
    """Phase 5: fire plants. Omitting plants fires the best choice.

    Attributes:
        type_ (PowerActionTypeEnum): * `power` - power
        hybrid (PowerActionRequestHybrid | Unset): {plant: {"coal": n, "oil": m}} for hybrid plants.
        plants (list[int] | Unset): Plant numbers to fire; left out: the best choice.
    """

    type_: PowerActionTypeEnum
    hybrid: PowerActionRequestHybrid | Unset = UNSET
    plants: list[int] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        hybrid: dict[str, Any] | Unset = UNSET
        if not isinstance(self.hybrid, Unset):
            hybrid = self.hybrid.to_dict()

        plants: list[int] | Unset = UNSET
        if not isinstance(self.plants, Unset):
            plants = self.plants

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if hybrid is not UNSET:
            field_dict["hybrid"] = hybrid
        if plants is not UNSET:
            field_dict["plants"] = plants

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.power_action_request_hybrid import PowerActionRequestHybrid  # noqa: PLC0415

        d = dict(src_dict)
        type_ = PowerActionTypeEnum(d.pop("type"))

        _hybrid = d.pop("hybrid", UNSET)
        hybrid: PowerActionRequestHybrid | Unset
        if isinstance(_hybrid, Unset):
            hybrid = UNSET
        else:
            hybrid = PowerActionRequestHybrid.from_dict(_hybrid)

        plants = cast(list[int], d.pop("plants", UNSET))

        power_action_request = cls(
            type_=type_,
            hybrid=hybrid,
            plants=plants,
        )

        return power_action_request
