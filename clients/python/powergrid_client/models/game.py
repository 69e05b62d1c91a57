from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.game_status_enum import GameStatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.game_options import GameOptions
    from ..models.seat import Seat


T = TypeVar("T", bound="Game")


@_attrs_define
class Game:
    """A game as anyone may see it (nothing secret).

    Attributes:
        areas (list[str] | None): null until the start when drawn at random.
        created_at (datetime.datetime):
        creator (None | str): Username of the creator (who may start it).
        deadline (datetime.datetime | None): Earliest deadline of the awaited seats (UTC).
        finished_at (datetime.datetime | None):
        house_rules (list[Literal['sealed_bid']]): The rules this game plays that are not the published game's (house
            rules): `["sealed_bid"]` or `[]`.
        id (int):
        map_ (str):
        max_players (int):
        options (GameOptions): The game's options (docs/API.md; the request's GameOptions gives their bounds).
        rules_edition (int): The edition of the rules the game is played by, fixed when it starts; a correction to the
            rules becomes a new edition, so games already running keep theirs. 2: as the seeds write them (France: plant 13
            is an ordinary card; no cap on a player's cities). 1: games started before edition 2 (France without 13; at most
            22 cities).
        seats (list[Seat]):
        seed (int | None): The seed, revealed when the game is over (null until then).
        seed_commitment (None | str): SHA-256 (hex) of "<game id>:<seed>", published from the start (null while open):
            the deck and first player order follow from the seed, which stays secret.
        seq (int): Number of moves made; send it as expected_seq.
        started_at (datetime.datetime | None):
        status (GameStatusEnum):
        to_act (list[int]): Awaited seats.
        invite_url (str | Unset): The private invitation link: to the creator only, while the game is open.
    """

    areas: list[str] | None
    created_at: datetime.datetime
    creator: None | str
    deadline: datetime.datetime | None
    finished_at: datetime.datetime | None
    house_rules: list[Literal["sealed_bid"]]
    id: int
    map_: str
    max_players: int
    options: GameOptions
    rules_edition: int
    seats: list[Seat]
    seed: int | None
    seed_commitment: None | str
    seq: int
    started_at: datetime.datetime | None
    status: GameStatusEnum
    to_act: list[int]
    invite_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        areas: list[str] | None
        if isinstance(self.areas, list):
            areas = self.areas

        else:
            areas = self.areas

        created_at = self.created_at.isoformat()

        creator: None | str
        creator = self.creator

        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        house_rules = self.house_rules

        id = self.id

        map_ = self.map_

        max_players = self.max_players

        options = self.options.to_dict()

        rules_edition = self.rules_edition

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)

        seed: int | None
        seed = self.seed

        seed_commitment: None | str
        seed_commitment = self.seed_commitment

        seq = self.seq

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status.value

        to_act = self.to_act

        invite_url = self.invite_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "areas": areas,
                "created_at": created_at,
                "creator": creator,
                "deadline": deadline,
                "finished_at": finished_at,
                "house_rules": house_rules,
                "id": id,
                "map": map_,
                "max_players": max_players,
                "options": options,
                "rules_edition": rules_edition,
                "seats": seats,
                "seed": seed,
                "seed_commitment": seed_commitment,
                "seq": seq,
                "started_at": started_at,
                "status": status,
                "to_act": to_act,
            }
        )
        if invite_url is not UNSET:
            field_dict["invite_url"] = invite_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_options import GameOptions  # noqa: PLC0415
        from ..models.seat import Seat  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_areas(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                areas_type_0 = cast(list[str], data)

                return areas_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        areas = _parse_areas(d.pop("areas"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_creator(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        creator = _parse_creator(d.pop("creator"))

        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

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

        house_rules = []
        _house_rules = d.pop("house_rules")
        for house_rules_item_data in _house_rules:
            house_rules_item = cast(Literal["sealed_bid"], house_rules_item_data)
            if house_rules_item != "sealed_bid":
                raise ValueError(f"house_rules_item must match const 'sealed_bid', got '{house_rules_item}'")
            house_rules.append(house_rules_item)

        id = d.pop("id")

        map_ = d.pop("map")

        max_players = d.pop("max_players")

        options = GameOptions.from_dict(d.pop("options"))

        rules_edition = d.pop("rules_edition")

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in _seats:
            seats_item = Seat.from_dict(seats_item_data)

            seats.append(seats_item)

        def _parse_seed(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seed = _parse_seed(d.pop("seed"))

        def _parse_seed_commitment(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        seed_commitment = _parse_seed_commitment(d.pop("seed_commitment"))

        seq = d.pop("seq")

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        status = GameStatusEnum(d.pop("status"))

        to_act = cast(list[int], d.pop("to_act"))

        invite_url = d.pop("invite_url", UNSET)

        game = cls(
            areas=areas,
            created_at=created_at,
            creator=creator,
            deadline=deadline,
            finished_at=finished_at,
            house_rules=house_rules,
            id=id,
            map_=map_,
            max_players=max_players,
            options=options,
            rules_edition=rules_edition,
            seats=seats,
            seed=seed,
            seed_commitment=seed_commitment,
            seq=seq,
            started_at=started_at,
            status=status,
            to_act=to_act,
            invite_url=invite_url,
        )

        return game
