from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SeekingRequest")


@_attrs_define
class SeekingRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            seeking (bool): true: offer your seat to substitutes while you play on; false: withdraw.
    """

    seeking: bool

    def to_dict(self) -> dict[str, Any]:
        seeking = self.seeking

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seeking": seeking,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seeking = d.pop("seeking")

        seeking_request = cls(
            seeking=seeking,
        )

        return seeking_request
