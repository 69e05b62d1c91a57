from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.stream_game_ref import StreamGameRef
    from ..models.stream_sheet_ref import StreamSheetRef


T = TypeVar("T", bound="StreamSheetAskedEvent")


@_attrs_define
class StreamSheetAskedEvent:
    """`event: sheet_asked` (your own stream only): a round began in a game played by round sheets and your seat is asked
    for its sheet (every seat at once). GET your sheet and, while it is `due`, PUT it back (changed or not) before
    `deadline`, when its suggestion is played for you. Follows the `game` event of the change that began the round.

        Attributes:
            deadline (datetime.datetime | None): When the sheet's suggestion is played if you have not answered.
            event (Literal['sheet_asked']):
            game (StreamGameRef): The game an event of its own is about, and its `seq` after the change.
            seat (int): Your seat.
            sheet (StreamSheetRef): The round sheet asked: its round (`GET /api/v1/games/{id}/sheet/` reads it).
    """

    deadline: datetime.datetime | None
    event: Literal["sheet_asked"]
    game: StreamGameRef
    seat: int
    sheet: StreamSheetRef

    def to_dict(self) -> dict[str, Any]:
        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        event = self.event

        game = self.game.to_dict()

        seat = self.seat

        sheet = self.sheet.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deadline": deadline,
                "event": event,
                "game": game,
                "seat": seat,
                "sheet": sheet,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stream_game_ref import StreamGameRef  # noqa: PLC0415
        from ..models.stream_sheet_ref import StreamSheetRef  # noqa: PLC0415

        d = dict(src_dict)

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

        event = cast(Literal["sheet_asked"], d.pop("event"))
        if event != "sheet_asked":
            raise ValueError(f"event must match const 'sheet_asked', got '{event}'")

        game = StreamGameRef.from_dict(d.pop("game"))

        seat = d.pop("seat")

        sheet = StreamSheetRef.from_dict(d.pop("sheet"))

        stream_sheet_asked_event = cls(
            deadline=deadline,
            event=event,
            game=game,
            seat=seat,
            sheet=sheet,
        )

        return stream_sheet_asked_event
