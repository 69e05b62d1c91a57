from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.bot_level_enum import BotLevelEnum

T = TypeVar("T", bound="BotLevelRating")


@_attrs_define
class BotLevelRating:
    """One bot level and its rating, as the "Bot levels" page (/bots/) shows it.

    Attributes:
        games (int): The finished games that rated it.
        level (BotLevelEnum):
        name (str): The level as a player, in the reader's language.
        rating (int | None): The rating shown (as a player's `rating.value`); null: not rated yet.
        username (None | str): Its rating account (GET /api/v1/players/{username}/); null: it has not played.
    """

    games: int
    level: BotLevelEnum
    name: str
    rating: int | None
    username: None | str

    def to_dict(self) -> dict[str, Any]:
        games = self.games

        level = self.level.value

        name = self.name

        rating: int | None
        rating = self.rating

        username: None | str
        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "games": games,
                "level": level,
                "name": name,
                "rating": rating,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        games = d.pop("games")

        level = BotLevelEnum(d.pop("level"))

        name = d.pop("name")

        def _parse_rating(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating = _parse_rating(d.pop("rating"))

        def _parse_username(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        username = _parse_username(d.pop("username"))

        bot_level_rating = cls(
            games=games,
            level=level,
            name=name,
            rating=rating,
            username=username,
        )

        return bot_level_rating
