from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedSealBid")


@_attrs_define
class LoggedSealBid:
    """Phase 2, sealed-bid variant: give one sealed bid (hidden until all are in). Its fields are withheld until its
    auction is over.

        Attributes:
            type_ (Literal['seal_bid']):
            amount (int | Unset): More than the opening bid, at most your money.
    """

    type_: Literal["seal_bid"]
    amount: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if amount is not UNSET:
            field_dict["amount"] = amount

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["seal_bid"], d.pop("type"))
        if type_ != "seal_bid":
            raise ValueError(f"type must match const 'seal_bid', got '{type_}'")

        amount = d.pop("amount", UNSET)

        logged_seal_bid = cls(
            type_=type_,
            amount=amount,
        )

        return logged_seal_bid
