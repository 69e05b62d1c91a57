from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BlockRequest")


@_attrs_define
class BlockRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            username (str): The player to block.
    """

    username: str

    def to_dict(self) -> dict[str, Any]:
        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        block_request = cls(
            username=username,
        )

        return block_request
