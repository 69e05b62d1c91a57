from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.stream_resync_event_reason import StreamResyncEventReason

T = TypeVar("T", bound="StreamResyncEvent")


@_attrs_define
class StreamResyncEvent:
    """`event: resync` (no `id`): the events since your `Last-Event-ID` are no longer kept (`expired`: away longer than the
    server keeps them, 24 h by default) or the id is not one of this server's (`unknown`). Read the state of your games
    again; the snapshot follows, its events carrying `at` as their id.

        Attributes:
            at (int): The stream's position now (the id of the snapshot's events).
            event (Literal['resync']):
            reason (StreamResyncEventReason):
    """

    at: int
    event: Literal["resync"]
    reason: StreamResyncEventReason

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        event = self.event

        reason = self.reason.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "at": at,
                "event": event,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = d.pop("at")

        event = cast(Literal["resync"], d.pop("event"))
        if event != "resync":
            raise ValueError(f"event must match const 'resync', got '{event}'")

        reason = StreamResyncEventReason(d.pop("reason"))

        stream_resync_event = cls(
            at=at,
            event=event,
            reason=reason,
        )

        return stream_resync_event
