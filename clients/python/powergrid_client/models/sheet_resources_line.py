from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.sheet_resources_line_mode_enum import SheetResourcesLineModeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sheet_reason import SheetReason
    from ..models.sheet_resources_line_amounts import SheetResourcesLineAmounts


T = TypeVar("T", bound="SheetResourcesLine")


@_attrs_define
class SheetResourcesLine:
    """
    Attributes:
        amounts (SheetResourcesLineAmounts): buy: the tokens; fuel: what that is today (shown, not read).
        max_price (int): Each token at most this.
        mode (SheetResourcesLineModeEnum):
        reason (SheetReason | Unset): Why the suggestion says so: a code (for programs), its parameters, and in words.
    """

    amounts: SheetResourcesLineAmounts
    max_price: int
    mode: SheetResourcesLineModeEnum
    reason: SheetReason | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amounts = self.amounts.to_dict()

        max_price = self.max_price

        mode = self.mode.value

        reason: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amounts": amounts,
                "max_price": max_price,
                "mode": mode,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sheet_reason import SheetReason  # noqa: PLC0415
        from ..models.sheet_resources_line_amounts import SheetResourcesLineAmounts  # noqa: PLC0415

        d = dict(src_dict)
        amounts = SheetResourcesLineAmounts.from_dict(d.pop("amounts"))

        max_price = d.pop("max_price")

        mode = SheetResourcesLineModeEnum(d.pop("mode"))

        _reason = d.pop("reason", UNSET)
        reason: SheetReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = SheetReason.from_dict(_reason)

        sheet_resources_line = cls(
            amounts=amounts,
            max_price=max_price,
            mode=mode,
            reason=reason,
        )

        return sheet_resources_line
