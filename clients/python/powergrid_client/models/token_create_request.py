from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenCreateRequest")


@_attrs_define
class TokenCreateRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            password (str):
            username (str):
            name (str | Unset): A name to tell the token apart in GET /api/v1/me/tokens/ (e.g. the bot's). Default: ''.
    """

    password: str
    username: str
    name: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        password = self.password

        username = self.username

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "password": password,
                "username": username,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        password = d.pop("password")

        username = d.pop("username")

        name = d.pop("name", UNSET)

        token_create_request = cls(
            password=password,
            username=username,
            name=name,
        )

        return token_create_request
