from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.sheet_build_line_mode_enum import SheetBuildLineModeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sheet_reason import SheetReason


T = TypeVar("T", bound="SheetBuildLine")


@_attrs_define
class SheetBuildLine:
    """
    Attributes:
        cities (list[str]): cities: the slugs; auto: what that is today (shown).
        max_total (int): At most this in total.
        mode (SheetBuildLineModeEnum):
        reason (SheetReason | Unset): Why the suggestion says so: a code (for programs), its parameters, and in words.
    """

    cities: list[str]
    max_total: int
    mode: SheetBuildLineModeEnum
    reason: SheetReason | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        cities = self.cities

        max_total = self.max_total

        mode = self.mode.value

        reason: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cities": cities,
                "max_total": max_total,
                "mode": mode,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sheet_reason import SheetReason  # noqa: PLC0415

        d = dict(src_dict)
        cities = cast(list[str], d.pop("cities"))

        max_total = d.pop("max_total")

        mode = SheetBuildLineModeEnum(d.pop("mode"))

        _reason = d.pop("reason", UNSET)
        reason: SheetReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = SheetReason.from_dict(_reason)

        sheet_build_line = cls(
            cities=cities,
            max_total=max_total,
            mode=mode,
            reason=reason,
        )

        return sheet_build_line
