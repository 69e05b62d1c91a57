from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookTest")


@_attrs_define
class WebhookTest:
    """
    Attributes:
        delivery (int): The test delivery's id (X-PowerGrid-Delivery).
    """

    delivery: int

    def to_dict(self) -> dict[str, Any]:
        delivery = self.delivery

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delivery": delivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delivery = d.pop("delivery")

        webhook_test = cls(
            delivery=delivery,
        )

        return webhook_test
