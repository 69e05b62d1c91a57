from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pass_bid_action_type_enum import PassBidActionTypeEnum

T = TypeVar("T", bound="PassBidActionRequest")


@_attrs_define
class PassBidActionRequest:
    """Phase 2: drop out of the current auction.

    Attributes:
        type_ (PassBidActionTypeEnum): * `pass_bid` - pass_bid
    """

    type_: PassBidActionTypeEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = PassBidActionTypeEnum(d.pop("type"))

        pass_bid_action_request = cls(
            type_=type_,
        )

        pass_bid_action_request.additional_properties = d
        return pass_bid_action_request

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
