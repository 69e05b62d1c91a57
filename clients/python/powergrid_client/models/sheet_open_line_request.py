from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sheet_reason import SheetReason


T = TypeVar("T", bound="SheetOpenLineRequest")


@_attrs_define
class SheetOpenLineRequest:
    """
    Attributes:
        max_ (int): The most you will pay for it.
        plant (int): A plant to open when it is your turn to (in this order).
        reason (SheetReason | Unset): Why the suggestion says so: a code (for programs), its parameters, and in words.
    """

    max_: int
    plant: int
    reason: SheetReason | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_

        plant = self.plant

        reason: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "max": max_,
                "plant": plant,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sheet_reason import SheetReason  # noqa: PLC0415

        d = dict(src_dict)
        max_ = d.pop("max")

        plant = d.pop("plant")

        _reason = d.pop("reason", UNSET)
        reason: SheetReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = SheetReason.from_dict(_reason)

        sheet_open_line_request = cls(
            max_=max_,
            plant=plant,
            reason=reason,
        )

        return sheet_open_line_request
