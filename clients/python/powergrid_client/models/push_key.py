from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PushKey")


@_attrs_define
class PushKey:
    """
    Attributes:
        public_key (str): The VAPID application server key for pushManager.subscribe (base64url, P-256); empty when Web
            Push is off on this server.
    """

    public_key: str

    def to_dict(self) -> dict[str, Any]:
        public_key = self.public_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "public_key": public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        public_key = d.pop("public_key")

        push_key = cls(
            public_key=public_key,
        )

        return push_key
