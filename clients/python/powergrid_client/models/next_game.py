from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.game import Game


T = TypeVar("T", bound="NextGame")


@_attrs_define
class NextGame:
    """`GET /api/v1/games/next/`: the game to play next.

    Attributes:
        deadline (None | str): Your deadline in it (ISO 8601), null if none.
        game (Game): A game as anyone may see it (nothing secret).
        waiting (int): How many games wait for your move, this one included.
    """

    deadline: None | str
    game: Game
    waiting: int

    def to_dict(self) -> dict[str, Any]:
        deadline: None | str
        deadline = self.deadline

        game = self.game.to_dict()

        waiting = self.waiting

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deadline": deadline,
                "game": game,
                "waiting": waiting,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game import Game  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_deadline(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        deadline = _parse_deadline(d.pop("deadline"))

        game = Game.from_dict(d.pop("game"))

        waiting = d.pop("waiting")

        next_game = cls(
            deadline=deadline,
            game=game,
            waiting=waiting,
        )

        return next_game
