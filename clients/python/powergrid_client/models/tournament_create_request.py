from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TournamentCreateRequest")


@_attrs_define
class TournamentCreateRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            maps (list[str]): Map slugs; each table plays one.
            name (str): 1 to 80 characters.
            private (bool | Unset): Unlisted; entered with its code. Default: False.
            rating_max (int | None | Unset): Only players rated at most this may enter; not below rating_min.
            rating_min (int | None | Unset): Only players rated at least this may enter.
            rounds (int | Unset):  Default: 3.
            signup_deadline (datetime.datetime | None | Unset): It starts then by itself (if enough entered).
            table_max (int | Unset):  Default: 5.
            table_min (int | Unset):  Default: 3.
            turn_hours (int | Unset):  Default: 24.
    """

    maps: list[str]
    name: str
    private: bool | Unset = False
    rating_max: int | None | Unset = UNSET
    rating_min: int | None | Unset = UNSET
    rounds: int | Unset = 3
    signup_deadline: datetime.datetime | None | Unset = UNSET
    table_max: int | Unset = 5
    table_min: int | Unset = 3
    turn_hours: int | Unset = 24

    def to_dict(self) -> dict[str, Any]:
        maps = self.maps

        name = self.name

        private = self.private

        rating_max: int | None | Unset
        if isinstance(self.rating_max, Unset):
            rating_max = UNSET
        else:
            rating_max = self.rating_max

        rating_min: int | None | Unset
        if isinstance(self.rating_min, Unset):
            rating_min = UNSET
        else:
            rating_min = self.rating_min

        rounds = self.rounds

        signup_deadline: None | str | Unset
        if isinstance(self.signup_deadline, Unset):
            signup_deadline = UNSET
        elif isinstance(self.signup_deadline, datetime.datetime):
            signup_deadline = self.signup_deadline.isoformat()
        else:
            signup_deadline = self.signup_deadline

        table_max = self.table_max

        table_min = self.table_min

        turn_hours = self.turn_hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "maps": maps,
                "name": name,
            }
        )
        if private is not UNSET:
            field_dict["private"] = private
        if rating_max is not UNSET:
            field_dict["rating_max"] = rating_max
        if rating_min is not UNSET:
            field_dict["rating_min"] = rating_min
        if rounds is not UNSET:
            field_dict["rounds"] = rounds
        if signup_deadline is not UNSET:
            field_dict["signup_deadline"] = signup_deadline
        if table_max is not UNSET:
            field_dict["table_max"] = table_max
        if table_min is not UNSET:
            field_dict["table_min"] = table_min
        if turn_hours is not UNSET:
            field_dict["turn_hours"] = turn_hours

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        maps = cast(list[str], d.pop("maps"))

        name = d.pop("name")

        private = d.pop("private", UNSET)

        def _parse_rating_max(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rating_max = _parse_rating_max(d.pop("rating_max", UNSET))

        def _parse_rating_min(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rating_min = _parse_rating_min(d.pop("rating_min", UNSET))

        rounds = d.pop("rounds", UNSET)

        def _parse_signup_deadline(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                signup_deadline_type_0 = datetime.datetime.fromisoformat(data)

                return signup_deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        signup_deadline = _parse_signup_deadline(d.pop("signup_deadline", UNSET))

        table_max = d.pop("table_max", UNSET)

        table_min = d.pop("table_min", UNSET)

        turn_hours = d.pop("turn_hours", UNSET)

        tournament_create_request = cls(
            maps=maps,
            name=name,
            private=private,
            rating_max=rating_max,
            rating_min=rating_min,
            rounds=rounds,
            signup_deadline=signup_deadline,
            table_max=table_max,
            table_min=table_min,
            turn_hours=turn_hours,
        )

        return tournament_create_request
