from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.bot_level_enum import BotLevelEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PracticeBodyRequest")


@_attrs_define
class PracticeBodyRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            emails (bool | Unset): Email me my turns in the practice game (off by default). Default: False.
            level (BotLevelEnum | Unset):  Default: BotLevelEnum.HEURISTIC.
            seat (int | None | Unset): A finished game: the seat to play (default: yours, else 0). A game under way: yours.
            seq (int | None | Unset): A finished game: the move to practise from (the board after it). A game under way:
                leave it out (its position now).
    """

    emails: bool | Unset = False
    level: BotLevelEnum | Unset = BotLevelEnum.HEURISTIC
    seat: int | None | Unset = UNSET
    seq: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        emails = self.emails

        level: str | Unset = UNSET
        if not isinstance(self.level, Unset):
            level = self.level.value

        seat: int | None | Unset
        if isinstance(self.seat, Unset):
            seat = UNSET
        else:
            seat = self.seat

        seq: int | None | Unset
        if isinstance(self.seq, Unset):
            seq = UNSET
        else:
            seq = self.seq

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if emails is not UNSET:
            field_dict["emails"] = emails
        if level is not UNSET:
            field_dict["level"] = level
        if seat is not UNSET:
            field_dict["seat"] = seat
        if seq is not UNSET:
            field_dict["seq"] = seq

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        emails = d.pop("emails", UNSET)

        _level = d.pop("level", UNSET)
        level: BotLevelEnum | Unset
        if isinstance(_level, Unset):
            level = UNSET
        else:
            level = BotLevelEnum(_level)

        def _parse_seat(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seat = _parse_seat(d.pop("seat", UNSET))

        def _parse_seq(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seq = _parse_seq(d.pop("seq", UNSET))

        practice_body_request = cls(
            emails=emails,
            level=level,
            seat=seat,
            seq=seq,
        )

        return practice_body_request
