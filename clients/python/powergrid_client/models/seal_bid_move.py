from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SealBidMove")


@_attrs_define
class SealBidMove:
    """
    Attributes:
        max_ (int):
        min_ (int):
        type_ (Literal['seal_bid']):
    """

    max_: int
    min_: int
    type_: Literal["seal_bid"]

    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_

        min_ = self.min_

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "max": max_,
                "min": min_,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_ = d.pop("max")

        min_ = d.pop("min")

        type_ = cast(Literal["seal_bid"], d.pop("type"))
        if type_ != "seal_bid":
            raise ValueError(f"type must match const 'seal_bid', got '{type_}'")

        seal_bid_move = cls(
            max_=max_,
            min_=min_,
            type_=type_,
        )

        return seal_bid_move
