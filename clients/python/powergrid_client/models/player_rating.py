from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlayerRating")


@_attrs_define
class PlayerRating:
    """A player's rating (openskill's Plackett-Luce model), changed once per rated game.

    Attributes:
        games (int): Rated games played.
        mu (float): The model's estimate of the player's skill.
        sigma (float): Its uncertainty (it shrinks with each rated game).
        updated_at (datetime.datetime):
        value (int): The rating shown: the conservative estimate (mu - 3 sigma) times 10.
    """

    games: int
    mu: float
    sigma: float
    updated_at: datetime.datetime
    value: int

    def to_dict(self) -> dict[str, Any]:
        games = self.games

        mu = self.mu

        sigma = self.sigma

        updated_at = self.updated_at.isoformat()

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "games": games,
                "mu": mu,
                "sigma": sigma,
                "updated_at": updated_at,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        games = d.pop("games")

        mu = d.pop("mu")

        sigma = d.pop("sigma")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        value = d.pop("value")

        player_rating = cls(
            games=games,
            mu=mu,
            sigma=sigma,
            updated_at=updated_at,
            value=value,
        )

        return player_rating
