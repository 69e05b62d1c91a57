from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.game_status_enum import GameStatusEnum

if TYPE_CHECKING:
    from ..models.league_standing_row import LeagueStandingRow


T = TypeVar("T", bound="LeagueDivision")


@_attrs_define
class LeagueDivision:
    """
    Attributes:
        current_round (int):
        number (int):
        round_count (int):
        rows (list[LeagueStandingRow]): The division's standings, best first.
        status (GameStatusEnum):
        tournament (int):
    """

    current_round: int
    number: int
    round_count: int
    rows: list[LeagueStandingRow]
    status: GameStatusEnum
    tournament: int

    def to_dict(self) -> dict[str, Any]:
        current_round = self.current_round

        number = self.number

        round_count = self.round_count

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        status = self.status.value

        tournament = self.tournament

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "current_round": current_round,
                "number": number,
                "round_count": round_count,
                "rows": rows,
                "status": status,
                "tournament": tournament,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.league_standing_row import LeagueStandingRow  # noqa: PLC0415

        d = dict(src_dict)
        current_round = d.pop("current_round")

        number = d.pop("number")

        round_count = d.pop("round_count")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = LeagueStandingRow.from_dict(rows_item_data)

            rows.append(rows_item)

        status = GameStatusEnum(d.pop("status"))

        tournament = d.pop("tournament")

        league_division = cls(
            current_round=current_round,
            number=number,
            round_count=round_count,
            rows=rows,
            status=status,
            tournament=tournament,
        )

        return league_division
