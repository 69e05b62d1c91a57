from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sheet_reason import SheetReason


T = TypeVar("T", bound="SheetDiscardLine")


@_attrs_define
class SheetDiscardLine:
    """
    Attributes:
        plant (int | None): The plant to give up for a plant too many (null: ask).
        reason (SheetReason | Unset): Why the suggestion says so: a code (for programs), its parameters, and in words.
    """

    plant: int | None
    reason: SheetReason | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        plant: int | None
        plant = self.plant

        reason: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
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

        def _parse_plant(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        plant = _parse_plant(d.pop("plant"))

        _reason = d.pop("reason", UNSET)
        reason: SheetReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = SheetReason.from_dict(_reason)

        sheet_discard_line = cls(
            plant=plant,
            reason=reason,
        )

        return sheet_discard_line
