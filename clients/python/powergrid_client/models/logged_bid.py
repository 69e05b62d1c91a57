from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LoggedBid")


@_attrs_define
class LoggedBid:
    """Phase 2: raise the current auction's bid.

    Attributes:
        amount (int): More than the current high bid.
        type_ (Literal['bid']):
    """

    amount: int
    type_: Literal["bid"]

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        type_ = self.type_

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

        type_ = cast(Literal["bid"], d.pop("type"))
        if type_ != "bid":
            raise ValueError(f"type must match const 'bid', got '{type_}'")

        logged_bid = cls(
            amount=amount,
            type_=type_,
        )

        return logged_bid
