from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.pass_auction_action_type_enum import PassAuctionActionTypeEnum

T = TypeVar("T", bound="PassAuctionActionRequest")


@_attrs_define
class PassAuctionActionRequest:
    """Phase 2: decline to open an auction this round (not in round 1).

    Attributes:
        type_ (PassAuctionActionTypeEnum): * `pass_auction` - pass_auction
    """

    type_: PassAuctionActionTypeEnum

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
        type_ = PassAuctionActionTypeEnum(d.pop("type"))

        pass_auction_action_request = cls(
            type_=type_,
        )

        return pass_auction_action_request
