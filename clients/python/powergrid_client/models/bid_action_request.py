from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

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
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        bid_action_request.additional_properties = d
        return bid_action_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
