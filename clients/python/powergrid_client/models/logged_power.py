from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.logged_power_hybrid import LoggedPowerHybrid


T = TypeVar("T", bound="LoggedPower")


@_attrs_define
class LoggedPower:
    """Phase 5: fire plants. Omitting plants fires the best choice.

    Attributes:
        type_ (Literal['power']):
        hybrid (LoggedPowerHybrid | Unset): {plant: {"coal": n, "oil": m}} for hybrid plants.
        plants (list[int] | Unset): Plant numbers to fire; left out: the best choice.
    """

    type_: Literal["power"]
    hybrid: LoggedPowerHybrid | Unset = UNSET
    plants: list[int] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

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
        from ..models.logged_power_hybrid import LoggedPowerHybrid  # noqa: PLC0415

        d = dict(src_dict)
        type_ = cast(Literal["power"], d.pop("type"))
        if type_ != "power":
            raise ValueError(f"type must match const 'power', got '{type_}'")

        _hybrid = d.pop("hybrid", UNSET)
        hybrid: LoggedPowerHybrid | Unset
        if isinstance(_hybrid, Unset):
            hybrid = UNSET
        else:
            hybrid = LoggedPowerHybrid.from_dict(_hybrid)

        plants = cast(list[int], d.pop("plants", UNSET))

        logged_power = cls(
            type_=type_,
            hybrid=hybrid,
            plants=plants,
        )

        return logged_power
