from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PushDevice")


@_attrs_define
class PushDevice:
    """One device (a browser's push subscription) of yours.

    Attributes:
        created (datetime.datetime):
        id (int):
        last_sent (datetime.datetime | None):
        name (str): Your name for it (at most 80 characters).
        service (str): The push service's host (fcm.googleapis.com, ...).
        turns (bool): Whether it gets a notice when it is your turn.
    """

    created: datetime.datetime
    id: int
    last_sent: datetime.datetime | None
    name: str
    service: str
    turns: bool

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        id = self.id

        last_sent: None | str
        if isinstance(self.last_sent, datetime.datetime):
            last_sent = self.last_sent.isoformat()
        else:
            last_sent = self.last_sent

        name = self.name

        service = self.service

        turns = self.turns

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created": created,
                "id": id,
                "last_sent": last_sent,
                "name": name,
                "service": service,
                "turns": turns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        id = d.pop("id")

        def _parse_last_sent(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_sent_type_0 = datetime.datetime.fromisoformat(data)

                return last_sent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_sent = _parse_last_sent(d.pop("last_sent"))

        name = d.pop("name")

        service = d.pop("service")

        turns = d.pop("turns")

        push_device = cls(
            created=created,
            id=id,
            last_sent=last_sent,
            name=name,
            service=service,
            turns=turns,
        )

        return push_device
