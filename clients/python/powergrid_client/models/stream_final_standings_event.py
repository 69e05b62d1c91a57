from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.stream_game_ref import StreamGameRef
    from ..models.stream_tournament import StreamTournament


T = TypeVar("T", bound="StreamFinalStandingsEvent")


@_attrs_define
class StreamFinalStandingsEvent:
    """`event: final_standings` (your own stream only): the last round ended; read the standings (`GET
    /api/v1/tournaments/{id}/standings/`). `game`: a game of the last round.

        Attributes:
            event (Literal['final_standings']):
            game (StreamGameRef): The game an event of its own is about, and its `seq` after the change.
            tournament (StreamTournament): A tournament's facts on a stream event (a league's division: its tournament).
    """

    event: Literal["final_standings"]
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
        event = cast(Literal["final_standings"], d.pop("event"))
        if event != "final_standings":
            raise ValueError(f"event must match const 'final_standings', got '{event}'")

        game = StreamGameRef.from_dict(d.pop("game"))

        tournament = StreamTournament.from_dict(d.pop("tournament"))

        stream_final_standings_event = cls(
            event=event,
            game=game,
            tournament=tournament,
        )

        return stream_final_standings_event
