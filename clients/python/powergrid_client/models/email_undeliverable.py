from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.reason_enum import ReasonEnum

T = TypeVar("T", bound="EmailUndeliverable")


@_attrs_define
class EmailUndeliverable:
    """Why and since when our emails to the account's address do not arrive (`accounts.deliverability`).

    Attributes:
        reason (ReasonEnum):
        since (datetime.datetime): When the address was found undeliverable (UTC).
    """

    reason: ReasonEnum
    since: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason.value

        since = self.since.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
                "since": since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = ReasonEnum(d.pop("reason"))

        since = datetime.datetime.fromisoformat(d.pop("since"))

        email_undeliverable = cls(
            reason=reason,
            since=since,
        )

        return email_undeliverable
