from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChatEditRequest")


@_attrs_define
class ChatEditRequest:
    """A message's new text (required: the edit replaces the text).

    Attributes:
        text (str): Plain text (never HTML).
    """

    text: str

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text")

        chat_edit_request = cls(
            text=text,
        )

        return chat_edit_request
