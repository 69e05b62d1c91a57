from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.events_enum import EventsEnum
from ..models.format_enum import FormatEnum

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """
    Attributes:
        active (bool):
        disabled_reason (str):
        events (list[EventsEnum]):
        failures_in_row (int):
        format_ (FormatEnum):
        game (int | None): The game whose every turn is posted; null: your own.
        id (int):
        secret (str): generic format: verify X-PowerGrid-Signature = sha256=HMAC-SHA256(secret, "<X-PowerGrid-
            Timestamp>.<body>").
        url (str):
    """

    active: bool
    disabled_reason: str
    events: list[EventsEnum]
    failures_in_row: int
    format_: FormatEnum
    game: int | None
    id: int
    secret: str
    url: str

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        disabled_reason = self.disabled_reason

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        failures_in_row = self.failures_in_row

        format_ = self.format_.value

        game: int | None
        game = self.game

        id = self.id

        secret = self.secret

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "active": active,
                "disabled_reason": disabled_reason,
                "events": events,
                "failures_in_row": failures_in_row,
                "format": format_,
                "game": game,
                "id": id,
                "secret": secret,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        disabled_reason = d.pop("disabled_reason")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventsEnum(events_item_data)

            events.append(events_item)

        failures_in_row = d.pop("failures_in_row")

        format_ = FormatEnum(d.pop("format"))

        def _parse_game(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        game = _parse_game(d.pop("game"))

        id = d.pop("id")

        secret = d.pop("secret")

        url = d.pop("url")

        webhook = cls(
            active=active,
            disabled_reason=disabled_reason,
            events=events,
            failures_in_row=failures_in_row,
            format_=format_,
            game=game,
            id=id,
            secret=secret,
            url=url,
        )

        return webhook
