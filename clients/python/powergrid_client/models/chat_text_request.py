from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChatTextRequest")


@_attrs_define
class ChatTextRequest:
    """A chat message to post, or a message's new text (the answer is
    ``games.shapes.ChatMessage``).

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

        chat_text_request = cls(
            text=text,
        )

        return chat_text_request
