from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.stream_game_ref import StreamGameRef
    from ..models.stream_takeback import StreamTakeback


T = TypeVar("T", bound="StreamTakebackAskedEvent")


@_attrs_define
class StreamTakebackAskedEvent:
    """`event: takeback_asked`: a player asks the others to agree to take moves back.

    Attributes:
        event (Literal['takeback_asked']):
        game (StreamGameRef): The game an event of its own is about, and its `seq` after the change.
        takeback (StreamTakeback): What a take-back concerns: the seat asking, the move numbers cancelled, whether the
            others agreed (`takeback`) or the request to answer (`takeback_asked`).
    """

    event: Literal["takeback_asked"]
    game: StreamGameRef
    takeback: StreamTakeback

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        game = self.game.to_dict()

        takeback = self.takeback.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
                "game": game,
                "takeback": takeback,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stream_game_ref import StreamGameRef  # noqa: PLC0415
        from ..models.stream_takeback import StreamTakeback  # noqa: PLC0415

        d = dict(src_dict)
        event = cast(Literal["takeback_asked"], d.pop("event"))
        if event != "takeback_asked":
            raise ValueError(f"event must match const 'takeback_asked', got '{event}'")

        game = StreamGameRef.from_dict(d.pop("game"))

        takeback = StreamTakeback.from_dict(d.pop("takeback"))

        stream_takeback_asked_event = cls(
            event=event,
            game=game,
            takeback=takeback,
        )

        return stream_takeback_asked_event
