from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.stream_game_status import StreamGameStatus

T = TypeVar("T", bound="StreamGame")


@_attrs_define
class StreamGame:
    """The public facts of a game, as every reader of the stream is told them.

    Attributes:
        id (int):
        map_ (str):
        seq (int): The game's move counter after this change.
        status (StreamGameStatus):
        to_act (list[int]): The seats awaited (empty once finished).
    """

    id: int
    map_: str
    seq: int
    status: StreamGameStatus
    to_act: list[int]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        map_ = self.map_

        seq = self.seq

        status = self.status.value

        to_act = self.to_act

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "map": map_,
                "seq": seq,
                "status": status,
                "to_act": to_act,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        map_ = d.pop("map")

        seq = d.pop("seq")

        status = StreamGameStatus(d.pop("status"))

        to_act = cast(list[int], d.pop("to_act"))

        stream_game = cls(
            id=id,
            map_=map_,
            seq=seq,
            status=status,
            to_act=to_act,
        )

        return stream_game
