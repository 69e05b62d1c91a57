from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.stream_game_ref import StreamGameRef
    from ..models.stream_tournament import StreamTournament


T = TypeVar("T", bound="StreamRoundStartedEvent")


@_attrs_define
class StreamRoundStartedEvent:
    """`event: round_started` (your own stream only): a later round began; `game` is your table's game, or with
    `tournament.table` null (a bye) one of the round's games.

        Attributes:
            event (Literal['round_started']):
            game (StreamGameRef): The game an event of its own is about, and its `seq` after the change.
            tournament (StreamTournament): A tournament's facts on a stream event (a league's division: its tournament).
    """

    event: Literal["round_started"]
    game: StreamGameRef
    tournament: StreamTournament

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        game = self.game.to_dict()

        tournament = self.tournament.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
                "game": game,
                "tournament": tournament,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stream_game_ref import StreamGameRef  # noqa: PLC0415
        from ..models.stream_tournament import StreamTournament  # noqa: PLC0415

        d = dict(src_dict)
        event = cast(Literal["round_started"], d.pop("event"))
        if event != "round_started":
            raise ValueError(f"event must match const 'round_started', got '{event}'")

        game = StreamGameRef.from_dict(d.pop("game"))

        tournament = StreamTournament.from_dict(d.pop("tournament"))

        stream_round_started_event = cls(
            event=event,
            game=game,
            tournament=tournament,
        )

        return stream_round_started_event
