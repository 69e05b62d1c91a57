from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChatMessage")


@_attrs_define
class ChatMessage:
    """
    Attributes:
        author (str): The author's display name.
        edited (bool):
        id (int):
        seat (int | None): The author's seat, null if they hold none.
        text (str): Plain text (never HTML).
        time (datetime.datetime):
    """

    author: str
    edited: bool
    id: int
    seat: int | None
    text: str
    time: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        author = self.author

        edited = self.edited

        id = self.id

        seat: int | None
        seat = self.seat

        text = self.text

        time = self.time.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "author": author,
                "edited": edited,
                "id": id,
                "seat": seat,
                "text": text,
                "time": time,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        author = d.pop("author")

        edited = d.pop("edited")

        id = d.pop("id")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        text = d.pop("text")

        time = datetime.datetime.fromisoformat(d.pop("time"))

        chat_message = cls(
            author=author,
            edited=edited,
            id=id,
            seat=seat,
            text=text,
            time=time,
        )

        return chat_message
