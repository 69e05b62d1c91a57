from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.pass_bid_action_type_enum import PassBidActionTypeEnum

T = TypeVar("T", bound="PassBidActionRequest")


@_attrs_define
class PassBidActionRequest:
    """Phase 2: drop out of the current auction.

    Attributes:
        type_ (PassBidActionTypeEnum): * `pass_bid` - pass_bid
    """

    type_: PassBidActionTypeEnum

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

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

        return pass_bid_action_request
