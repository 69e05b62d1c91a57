from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LoggedPassBid")


@_attrs_define
class LoggedPassBid:
    """Phase 2: drop out of the current auction. In a sealed auction it is a sealed answer: shown as a seal_bid until the
    bids are opened.

        Attributes:
            type_ (Literal['pass_bid']):
    """

    type_: Literal["pass_bid"]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

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
        type_ = cast(Literal["pass_bid"], d.pop("type"))
        if type_ != "pass_bid":
            raise ValueError(f"type must match const 'pass_bid', got '{type_}'")

        logged_pass_bid = cls(
            type_=type_,
        )

        return logged_pass_bid
