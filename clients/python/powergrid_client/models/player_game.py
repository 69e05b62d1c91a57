from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.game_status_enum import GameStatusEnum

T = TypeVar("T", bound="PlayerGame")


@_attrs_define
class PlayerGame:
    """One of the player's games, as anyone may see it listed (a private game only for its players and invitees).

    Attributes:
        finished_at (datetime.datetime | None):
        id (int):
        map_ (str):
        max_players (int):
        place (int | None): Finished games: the player's rank (1 = won; ties share it).
        players (int): Seats taken.
        status (GameStatusEnum):
    """

    finished_at: datetime.datetime | None
    id: int
    map_: str
    max_players: int
    place: int | None
    players: int
    status: GameStatusEnum

    def to_dict(self) -> dict[str, Any]:
        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        map_ = self.map_

        max_players = self.max_players

        place: int | None
        place = self.place

        players = self.players

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "finished_at": finished_at,
                "id": id,
                "map": map_,
                "max_players": max_players,
                "place": place,
                "players": players,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        id = d.pop("id")

        map_ = d.pop("map")

        max_players = d.pop("max_players")

        def _parse_place(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        place = _parse_place(d.pop("place"))

        players = d.pop("players")

        status = GameStatusEnum(d.pop("status"))

        player_game = cls(
            finished_at=finished_at,
            id=id,
            map_=map_,
            max_players=max_players,
            place=place,
            players=players,
            status=status,
        )

        return player_game
