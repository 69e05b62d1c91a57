from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.game_result_row import GameResultRow
    from ..models.round_figures import RoundFigures


T = TypeVar("T", bound="GameResult")


@_attrs_define
class GameResult:
    """A finished game's result: the scores and, per round, each seat's money, cities and plants (what the result page
    charts, replayed from the move log).

        Attributes:
            game (int):
            rounds (list[RoundFigures]):
            rows (list[GameResultRow]): By rank, then seat.
    """

    game: int
    rounds: list[RoundFigures]
    rows: list[GameResultRow]

    def to_dict(self) -> dict[str, Any]:
        game = self.game

        rounds = []
        for rounds_item_data in self.rounds:
            rounds_item = rounds_item_data.to_dict()
            rounds.append(rounds_item)

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "game": game,
                "rounds": rounds,
                "rows": rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_result_row import GameResultRow  # noqa: PLC0415
        from ..models.round_figures import RoundFigures  # noqa: PLC0415

        d = dict(src_dict)
        game = d.pop("game")

        rounds = []
        _rounds = d.pop("rounds")
        for rounds_item_data in _rounds:
            rounds_item = RoundFigures.from_dict(rounds_item_data)

            rounds.append(rounds_item)

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = GameResultRow.from_dict(rows_item_data)

            rows.append(rows_item)

        game_result = cls(
            game=game,
            rounds=rounds,
            rows=rows,
        )

        return game_result
