from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sheet_reason import SheetReason


T = TypeVar("T", bound="SheetPassLineRequest")


@_attrs_define
class SheetPassLineRequest:
    """
    Attributes:
        value (bool): None of your plants offered: open no auction (after round 1).
        reason (SheetReason | Unset): Why the suggestion says so: a code (for programs), its parameters, and in words.
    """

    value: bool
    reason: SheetReason | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        value = self.value

        reason: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "value": value,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sheet_reason import SheetReason  # noqa: PLC0415

        d = dict(src_dict)
        value = d.pop("value")

        _reason = d.pop("reason", UNSET)
        reason: SheetReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = SheetReason.from_dict(_reason)

        sheet_pass_line_request = cls(
            value=value,
            reason=reason,
        )

        return sheet_pass_line_request
