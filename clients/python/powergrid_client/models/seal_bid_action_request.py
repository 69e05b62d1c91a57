from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.seal_bid_action_type_enum import SealBidActionTypeEnum

T = TypeVar("T", bound="SealBidActionRequest")


@_attrs_define
class SealBidActionRequest:
    """Phase 2, sealed-bid variant: give one sealed bid (hidden until all are in).

    Attributes:
        amount (int): More than the opening bid, at most your money.
        type_ (SealBidActionTypeEnum): * `seal_bid` - seal_bid
    """

    amount: int
    type_: SealBidActionTypeEnum

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

        type_ = SealBidActionTypeEnum(d.pop("type"))

        seal_bid_action_request = cls(
            amount=amount,
            type_=type_,
        )

        return seal_bid_action_request
