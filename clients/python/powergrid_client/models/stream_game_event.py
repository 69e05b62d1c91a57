from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stream_game import StreamGame


T = TypeVar("T", bound="StreamGameEvent")


@_attrs_define
class StreamGameEvent:
    """`event: game`: the game changed (one event per change, in order; the game's end has `status: finished`). On a
    player's own stream also their `seat`, `your_turn` and its `deadline`; on a watcher's (`?game=`) only the game. Read
    the state for the rest.

        Attributes:
            event (Literal['game']):
            game (StreamGame): The public facts of a game, as every reader of the stream is told them.
            deadline (datetime.datetime | None | Unset): When your turn times out (your own stream).
            seat (int | Unset): Your seat (your own stream only).
            your_turn (bool | Unset): Whether you are awaited (your own stream).
    """

    event: Literal["game"]
    game: StreamGame
    deadline: datetime.datetime | None | Unset = UNSET
    seat: int | Unset = UNSET
    your_turn: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        game = self.game.to_dict()

        deadline: None | str | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        elif isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        seat = self.seat

        your_turn = self.your_turn

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
                "game": game,
            }
        )
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if seat is not UNSET:
            field_dict["seat"] = seat
        if your_turn is not UNSET:
            field_dict["your_turn"] = your_turn

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stream_game import StreamGame  # noqa: PLC0415

        d = dict(src_dict)
        event = cast(Literal["game"], d.pop("event"))
        if event != "game":
            raise ValueError(f"event must match const 'game', got '{event}'")

        game = StreamGame.from_dict(d.pop("game"))

        def _parse_deadline(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deadline = _parse_deadline(d.pop("deadline", UNSET))

        seat = d.pop("seat", UNSET)

        your_turn = d.pop("your_turn", UNSET)

        stream_game_event = cls(
            event=event,
            game=game,
            deadline=deadline,
            seat=seat,
            your_turn=your_turn,
        )

        return stream_game_event
