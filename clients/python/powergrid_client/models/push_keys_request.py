from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PushKeysRequest")


@_attrs_define
class PushKeysRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            auth (str): The browser's auth secret (16 bytes), base64url.
            p256dh (str): The browser's P-256 public key, base64url.
    """

    auth: str
    p256dh: str

    def to_dict(self) -> dict[str, Any]:
        auth = self.auth

        p256dh = self.p256dh

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "auth": auth,
                "p256dh": p256dh,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        auth = d.pop("auth")

        p256dh = d.pop("p256dh")

        push_keys_request = cls(
            auth=auth,
            p256dh=p256dh,
        )

        return push_keys_request
