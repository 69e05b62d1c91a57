from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ProxyBidPlan")


@_attrs_define
class ProxyBidPlan:
    """
    Attributes:
        kind (Literal['proxy_bid']):
        max_ (int): The most you will pay (at least the plant's number).
        plant (int):
        discard (int | Unset): One of your plants to give up if winning this one is one too many.
    """

    kind: Literal["proxy_bid"]
    max_: int
    plant: int
    discard: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        max_ = self.max_

        plant = self.plant

        discard = self.discard

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "max": max_,
                "plant": plant,
            }
        )
        if discard is not UNSET:
            field_dict["discard"] = discard

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["proxy_bid"], d.pop("kind"))
        if kind != "proxy_bid":
            raise ValueError(f"kind must match const 'proxy_bid', got '{kind}'")

        max_ = d.pop("max")

        plant = d.pop("plant")

        discard = d.pop("discard", UNSET)

        proxy_bid_plan = cls(
            kind=kind,
            max_=max_,
            plant=plant,
            discard=discard,
        )

        return proxy_bid_plan
