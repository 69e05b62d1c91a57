from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.game_status_enum import GameStatusEnum

T = TypeVar("T", bound="TournamentSummary")


@_attrs_define
class TournamentSummary:
    """A tournament as lists show it.

    Attributes:
        created_at (datetime.datetime):
        current_round (int):
        director (str):
        entrants (int): How many entered (those who dropped out too): `/api/v1/tournaments/{id}/players/`.
        id (int):
        maps (list[str]):
        name (str):
        private (bool):
        rating_max (int | None):
        rating_min (int | None):
        round_count (int): Rounds the tournament plays (`rounds` when created).
        signup_deadline (datetime.datetime | None):
        status (GameStatusEnum):
        table_max (int):
        table_min (int):
        turn_hours (int):
    """

    created_at: datetime.datetime
    current_round: int
    director: str
    entrants: int
    id: int
    maps: list[str]
    name: str
    private: bool
    rating_max: int | None
    rating_min: int | None
    round_count: int
    signup_deadline: datetime.datetime | None
    status: GameStatusEnum
    table_max: int
    table_min: int
    turn_hours: int

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        current_round = self.current_round

        director = self.director

        entrants = self.entrants

        id = self.id

        maps = self.maps

        name = self.name

        private = self.private

        rating_max: int | None
        rating_max = self.rating_max

        rating_min: int | None
        rating_min = self.rating_min

        round_count = self.round_count

        signup_deadline: None | str
        if isinstance(self.signup_deadline, datetime.datetime):
            signup_deadline = self.signup_deadline.isoformat()
        else:
            signup_deadline = self.signup_deadline

        status = self.status.value

        table_max = self.table_max

        table_min = self.table_min

        turn_hours = self.turn_hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "current_round": current_round,
                "director": director,
                "entrants": entrants,
                "id": id,
                "maps": maps,
                "name": name,
                "private": private,
                "rating_max": rating_max,
                "rating_min": rating_min,
                "round_count": round_count,
                "signup_deadline": signup_deadline,
                "status": status,
                "table_max": table_max,
                "table_min": table_min,
                "turn_hours": turn_hours,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        current_round = d.pop("current_round")

        director = d.pop("director")

        entrants = d.pop("entrants")

        id = d.pop("id")

        maps = cast(list[str], d.pop("maps"))

        name = d.pop("name")

        private = d.pop("private")

        def _parse_rating_max(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating_max = _parse_rating_max(d.pop("rating_max"))

        def _parse_rating_min(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating_min = _parse_rating_min(d.pop("rating_min"))

        round_count = d.pop("round_count")

        def _parse_signup_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                signup_deadline_type_0 = datetime.datetime.fromisoformat(data)

                return signup_deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        signup_deadline = _parse_signup_deadline(d.pop("signup_deadline"))

        status = GameStatusEnum(d.pop("status"))

        table_max = d.pop("table_max")

        table_min = d.pop("table_min")

        turn_hours = d.pop("turn_hours")

        tournament_summary = cls(
            created_at=created_at,
            current_round=current_round,
            director=director,
            entrants=entrants,
            id=id,
            maps=maps,
            name=name,
            private=private,
            rating_max=rating_max,
            rating_min=rating_min,
            round_count=round_count,
            signup_deadline=signup_deadline,
            status=status,
            table_max=table_max,
            table_min=table_min,
            turn_hours=turn_hours,
        )

        return tournament_summary
