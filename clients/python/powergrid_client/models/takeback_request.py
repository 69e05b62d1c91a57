from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.takeback_status_enum import TakebackStatusEnum

T = TypeVar("T", bound="TakebackRequest")


@_attrs_define
class TakebackRequest:
    """A player's request to take back moves, which every other player must accept.

    Attributes:
        accepted (list[int]):
        asked (list[int]):
        at_seq (int): The position it was asked in: any move makes it void.
        cancels (list[int]): The moves it would take back (seqs).
        created_at (datetime.datetime):
        deadline (datetime.datetime): Everyone must accept before this.
        declined_by (int | None):
        id (int):
        reason (str): Why it needs the others: others_moved, plant_drawn or sealed_bids_opened (empty: the player could
            have taken it back alone).
        seat (int): The player who asks.
        status (TakebackStatusEnum):
        takeback_seq (int | None): The take-back's entry in the log, once everyone agreed.
        waiting_for (list[int]):
    """

    accepted: list[int]
    asked: list[int]
    at_seq: int
    cancels: list[int]
    created_at: datetime.datetime
    deadline: datetime.datetime
    declined_by: int | None
    id: int
    reason: str
    seat: int
    status: TakebackStatusEnum
    takeback_seq: int | None
    waiting_for: list[int]

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        asked = self.asked

        at_seq = self.at_seq

        cancels = self.cancels

        created_at = self.created_at.isoformat()

        deadline = self.deadline.isoformat()

        declined_by: int | None
        declined_by = self.declined_by

        id = self.id

        reason = self.reason

        seat = self.seat

        status = self.status.value

        takeback_seq: int | None
        takeback_seq = self.takeback_seq

        waiting_for = self.waiting_for

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted": accepted,
                "asked": asked,
                "at_seq": at_seq,
                "cancels": cancels,
                "created_at": created_at,
                "deadline": deadline,
                "declined_by": declined_by,
                "id": id,
                "reason": reason,
                "seat": seat,
                "status": status,
                "takeback_seq": takeback_seq,
                "waiting_for": waiting_for,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accepted = cast(list[int], d.pop("accepted"))

        asked = cast(list[int], d.pop("asked"))

        at_seq = d.pop("at_seq")

        cancels = cast(list[int], d.pop("cancels"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        deadline = datetime.datetime.fromisoformat(d.pop("deadline"))

        def _parse_declined_by(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        declined_by = _parse_declined_by(d.pop("declined_by"))

        id = d.pop("id")

        reason = d.pop("reason")

        seat = d.pop("seat")

        status = TakebackStatusEnum(d.pop("status"))

        def _parse_takeback_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        takeback_seq = _parse_takeback_seq(d.pop("takeback_seq"))

        waiting_for = cast(list[int], d.pop("waiting_for"))

        takeback_request = cls(
            accepted=accepted,
            asked=asked,
            at_seq=at_seq,
            cancels=cancels,
            created_at=created_at,
            deadline=deadline,
            declined_by=declined_by,
            id=id,
            reason=reason,
            seat=seat,
            status=status,
            takeback_seq=takeback_seq,
            waiting_for=waiting_for,
        )

        return takeback_request
