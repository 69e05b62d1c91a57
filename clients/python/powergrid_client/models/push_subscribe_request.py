from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.push_keys_request import PushKeysRequest


T = TypeVar("T", bound="PushSubscribeRequest")


@_attrs_define
class PushSubscribeRequest:
    """A browser's push subscription (``PushSubscription.toJSON()``) and your choices.

    Attributes:
        endpoint (str): The push service's URL for this browser.
        keys (PushKeysRequest): The base of every request body (each one's OpenAPI component is closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
            does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
            so a refused body changes nothing.
        expiration_time (int | None | Unset): As the browser gives it: whole milliseconds since 1970 (a JSON integer),
            or null; ignored.
        name (str | Unset): Your name for the device (at most 80).
        turns (bool | Unset): Turn notices on it (a new device: true; a known one: kept).
    """

    endpoint: str
    keys: PushKeysRequest
    expiration_time: int | None | Unset = UNSET
    name: str | Unset = UNSET
    turns: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        endpoint = self.endpoint

        keys = self.keys.to_dict()

        expiration_time: int | None | Unset
        if isinstance(self.expiration_time, Unset):
            expiration_time = UNSET
        else:
            expiration_time = self.expiration_time

        name = self.name

        turns = self.turns

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoint": endpoint,
                "keys": keys,
            }
        )
        if expiration_time is not UNSET:
            field_dict["expirationTime"] = expiration_time
        if name is not UNSET:
            field_dict["name"] = name
        if turns is not UNSET:
            field_dict["turns"] = turns

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.push_keys_request import PushKeysRequest  # noqa: PLC0415

        d = dict(src_dict)
        endpoint = d.pop("endpoint")

        keys = PushKeysRequest.from_dict(d.pop("keys"))

        def _parse_expiration_time(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expiration_time = _parse_expiration_time(d.pop("expirationTime", UNSET))

        name = d.pop("name", UNSET)

        turns = d.pop("turns", UNSET)

        push_subscribe_request = cls(
            endpoint=endpoint,
            keys=keys,
            expiration_time=expiration_time,
            name=name,
            turns=turns,
        )

        return push_subscribe_request
