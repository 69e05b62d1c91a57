from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.events_enum import EventsEnum
from ..models.format_enum import FormatEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookRequest")


@_attrs_define
class WebhookRequest:
    """A webhook to add (the answer is ``games.shapes.Webhook``).

    Attributes:
        url (str): https:// only (no private addresses).
        events (list[EventsEnum] | Unset): Default: all of them.
        format_ (FormatEnum | Unset):  Default: FormatEnum.GENERIC.
        game (int | None | Unset): A game of yours: every turn of that game (for a group's chat). Null: your own turns
            and your games' start and end.
    """

    url: str
    events: list[EventsEnum] | Unset = UNSET
    format_: FormatEnum | Unset = FormatEnum.GENERIC
    game: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        game: int | None | Unset
        if isinstance(self.game, Unset):
            game = UNSET
        else:
            game = self.game

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if events is not UNSET:
            field_dict["events"] = events
        if format_ is not UNSET:
            field_dict["format"] = format_
        if game is not UNSET:
            field_dict["game"] = game

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        _events = d.pop("events", UNSET)
        events: list[EventsEnum] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = EventsEnum(events_item_data)

                events.append(events_item)

        _format_ = d.pop("format", UNSET)
        format_: FormatEnum | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = FormatEnum(_format_)

        def _parse_game(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        game = _parse_game(d.pop("game", UNSET))

        webhook_request = cls(
            url=url,
            events=events,
            format_=format_,
            game=game,
        )

        return webhook_request
