from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedPushDeviceRequest")


@_attrs_define
class PatchedPushDeviceRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            turns (bool | Unset): Turn notices on this device.
    """

    turns: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        turns = self.turns

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if turns is not UNSET:
            field_dict["turns"] = turns

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        turns = d.pop("turns", UNSET)

        patched_push_device_request = cls(
            turns=turns,
        )

        return patched_push_device_request
