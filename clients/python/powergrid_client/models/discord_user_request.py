from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DiscordUserRequest")


@_attrs_define
class DiscordUserRequest:
    """Your Discord user ID (the answer is ``games.shapes.DiscordUser``).

    Attributes:
        discord_user_id (str): 17 to 20 digits (Discord: Copy User ID); empty: none.
    """

    discord_user_id: str

    def to_dict(self) -> dict[str, Any]:
        discord_user_id = self.discord_user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "discord_user_id": discord_user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        discord_user_id = d.pop("discord_user_id")

        discord_user_request = cls(
            discord_user_id=discord_user_id,
        )

        return discord_user_request
