from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PendingDiscard")


@_attrs_define
class PendingDiscard:
    """A player won one plant too many and must discard one before the game goes on.

    Attributes:
        plant_bought (int):
        seat (int):
    """

    plant_bought: int
    seat: int

    def to_dict(self) -> dict[str, Any]:
        plant_bought = self.plant_bought

        seat = self.seat

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "plant_bought": plant_bought,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        plant_bought = d.pop("plant_bought")

        seat = d.pop("seat")

        pending_discard = cls(
            plant_bought=plant_bought,
            seat=seat,
        )

        return pending_discard
