from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SubstituteRequest")


@_attrs_define
class SubstituteRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            seat (int): The offered seat to take.
    """

    seat: int

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        substitute_request = cls(
            seat=seat,
        )

        return substitute_request
