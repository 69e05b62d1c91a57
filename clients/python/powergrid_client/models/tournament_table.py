from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.tournament_player import TournamentPlayer


T = TypeVar("T", bound="TournamentTable")


@_attrs_define
class TournamentTable:
    """
    Attributes:
        finished (bool):
        game (int | None): The table's game: `/api/v1/games/{game}/`; null while the table is being set up (just after
            its round was seated, until its game is made).
        map_ (str):
        number (int):
        players (list[TournamentPlayer]):
    """

    finished: bool
    game: int | None
    map_: str
    number: int
    players: list[TournamentPlayer]

    def to_dict(self) -> dict[str, Any]:
        finished = self.finished

        game: int | None
        game = self.game

        map_ = self.map_

        number = self.number

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "finished": finished,
                "game": game,
                "map": map_,
                "number": number,
                "players": players,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tournament_player import TournamentPlayer  # noqa: PLC0415

        d = dict(src_dict)
        finished = d.pop("finished")

        def _parse_game(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        game = _parse_game(d.pop("game"))

        map_ = d.pop("map")

        number = d.pop("number")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = TournamentPlayer.from_dict(players_item_data)

            players.append(players_item)

        tournament_table = cls(
            finished=finished,
            game=game,
            map_=map_,
            number=number,
            players=players,
        )

        return tournament_table
