from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="StreamTournament")


@_attrs_define
class StreamTournament:
    """A tournament's facts on a stream event (a league's division: its tournament).

    Attributes:
        id (int): `GET /api/v1/tournaments/{id}/` for its rounds and standings.
        name (str):
        round_ (int):
        rounds (int):
        table (int | None): Your table's number this round; null: a bye, or the end.
        url (str): The tournament's page.
    """

    id: int
    name: str
    round_: int
    rounds: int
    table: int | None
    url: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        round_ = self.round_

        rounds = self.rounds

        table: int | None
        table = self.table

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "round": round_,
                "rounds": rounds,
                "table": table,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        round_ = d.pop("round")

        rounds = d.pop("rounds")

        def _parse_table(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        table = _parse_table(d.pop("table"))

        url = d.pop("url")

        stream_tournament = cls(
            id=id,
            name=name,
            round_=round_,
            rounds=rounds,
            table=table,
            url=url,
        )

        return stream_tournament
