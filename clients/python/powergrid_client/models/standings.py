from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.standing_row import StandingRow


T = TypeVar("T", bound="Standings")


@_attrs_define
class Standings:
    """A page of a tournament's standings (`results`, best first; `count`: every entrant).

    Attributes:
        count (int): How many the whole list holds.
        final (bool): true once the last round ended.
        next_ (None | str): The next page's URL; null: this is the last.
        previous (None | str): The previous page's URL; null: this is the first.
        results (list[StandingRow]):
        tournament (int):
    """

    count: int
    final: bool
    next_: None | str
    previous: None | str
    results: list[StandingRow]
    tournament: int

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        final = self.final

        next_: None | str
        next_ = self.next_

        previous: None | str
        previous = self.previous

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        tournament = self.tournament

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "count": count,
                "final": final,
                "next": next_,
                "previous": previous,
                "results": results,
                "tournament": tournament,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.standing_row import StandingRow  # noqa: PLC0415

        d = dict(src_dict)
        count = d.pop("count")

        final = d.pop("final")

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        def _parse_previous(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous = _parse_previous(d.pop("previous"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = StandingRow.from_dict(results_item_data)

            results.append(results_item)

        tournament = d.pop("tournament")

        standings = cls(
            count=count,
            final=final,
            next_=next_,
            previous=previous,
            results=results,
            tournament=tournament,
        )

        return standings
