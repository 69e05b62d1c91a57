from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.game_status_enum import GameStatusEnum

if TYPE_CHECKING:
    from ..models.tournament_league import TournamentLeague
    from ..models.tournament_round import TournamentRound


T = TypeVar("T", bound="Tournament")


@_attrs_define
class Tournament:
    """A tournament with its rounds, each with its number of tables. Its entrants (`entrants` of them) are paged at
    `/api/v1/tournaments/{id}/players/`, a round's tables at `/api/v1/tournaments/{id}/rounds/{number}/`: the answer is
    as small at 2,000 entrants as at 10.

        Attributes:
            created_at (datetime.datetime):
            current_round (int):
            director (str):
            entered (bool): Whether you entered it (dropped out or not).
            entrants (int): How many entered (those who dropped out too): `/api/v1/tournaments/{id}/players/`.
            id (int):
            invite_code (None | str): A private tournament's code (the `code` its join and reads take): shown to its
                director only; null to anyone else, and for a public tournament.
            league (None | TournamentLeague): A league division's tournament: which; else null.
            maps (list[str]):
            name (str):
            private (bool):
            rating_max (int | None):
            rating_min (int | None):
            round_count (int): Rounds the tournament plays (`rounds` when created).
            rounds (list[TournamentRound]): Every round seated so far (at most `round_count`).
            signup_deadline (datetime.datetime | None):
            status (GameStatusEnum):
            table_max (int):
            table_min (int):
            turn_hours (int):
    """

    created_at: datetime.datetime
    current_round: int
    director: str
    entered: bool
    entrants: int
    id: int
    invite_code: None | str
    league: None | TournamentLeague
    maps: list[str]
    name: str
    private: bool
    rating_max: int | None
    rating_min: int | None
    round_count: int
    rounds: list[TournamentRound]
    signup_deadline: datetime.datetime | None
    status: GameStatusEnum
    table_max: int
    table_min: int
    turn_hours: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.tournament_league import TournamentLeague  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        current_round = self.current_round

        director = self.director

        entered = self.entered

        entrants = self.entrants

        id = self.id

        invite_code: None | str
        invite_code = self.invite_code

        league: dict[str, Any] | None
        if isinstance(self.league, TournamentLeague):
            league = self.league.to_dict()
        else:
            league = self.league

        maps = self.maps

        name = self.name

        private = self.private

        rating_max: int | None
        rating_max = self.rating_max

        rating_min: int | None
        rating_min = self.rating_min

        round_count = self.round_count

        rounds = []
        for rounds_item_data in self.rounds:
            rounds_item = rounds_item_data.to_dict()
            rounds.append(rounds_item)

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
                "entered": entered,
                "entrants": entrants,
                "id": id,
                "invite_code": invite_code,
                "league": league,
                "maps": maps,
                "name": name,
                "private": private,
                "rating_max": rating_max,
                "rating_min": rating_min,
                "round_count": round_count,
                "rounds": rounds,
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
        from ..models.tournament_league import TournamentLeague  # noqa: PLC0415
        from ..models.tournament_round import TournamentRound  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        current_round = d.pop("current_round")

        director = d.pop("director")

        entered = d.pop("entered")

        entrants = d.pop("entrants")

        id = d.pop("id")

        def _parse_invite_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        invite_code = _parse_invite_code(d.pop("invite_code"))

        def _parse_league(data: object) -> None | TournamentLeague:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                league_type_0 = TournamentLeague.from_dict(data)

                return league_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TournamentLeague, data)

        league = _parse_league(d.pop("league"))

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

        rounds = []
        _rounds = d.pop("rounds")
        for rounds_item_data in _rounds:
            rounds_item = TournamentRound.from_dict(rounds_item_data)

            rounds.append(rounds_item)

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

        tournament = cls(
            created_at=created_at,
            current_round=current_round,
            director=director,
            entered=entered,
            entrants=entrants,
            id=id,
            invite_code=invite_code,
            league=league,
            maps=maps,
            name=name,
            private=private,
            rating_max=rating_max,
            rating_min=rating_min,
            round_count=round_count,
            rounds=rounds,
            signup_deadline=signup_deadline,
            status=status,
            table_max=table_max,
            table_min=table_min,
            turn_hours=turn_hours,
        )

        return tournament
