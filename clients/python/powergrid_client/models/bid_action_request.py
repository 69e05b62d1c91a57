from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.bid_action_type_enum import BidActionTypeEnum

T = TypeVar("T", bound="BidActionRequest")


@_attrs_define
class BidActionRequest:
    """Phase 2: raise the current auction's bid.

    Attributes:
        amount (int): More than the current high bid.
        type_ (BidActionTypeEnum): * `bid` - bid
    """

    amount: int
    type_: BidActionTypeEnum

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        type_ = BidActionTypeEnum(d.pop("type"))

        bid_action_request = cls(
            amount=amount,
            type_=type_,
        )

        return bid_action_request
