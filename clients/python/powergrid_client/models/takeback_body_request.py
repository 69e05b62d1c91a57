from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TakebackBodyRequest")


@_attrs_define
class TakebackBodyRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            expected_seq (int): The game's seq as you last saw it: nothing moved since.
    """

    expected_seq: int

    def to_dict(self) -> dict[str, Any]:
        expected_seq = self.expected_seq

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "expected_seq": expected_seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expected_seq = d.pop("expected_seq")

        takeback_body_request = cls(
            expected_seq=expected_seq,
        )

        return takeback_body_request
