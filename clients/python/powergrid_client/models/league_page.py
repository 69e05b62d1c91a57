from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.league_summary import LeagueSummary


T = TypeVar("T", bound="LeaguePage")


@_attrs_define
class LeaguePage:
    """A page of leagues, newest first.

    Attributes:
        count (int): How many the whole list holds.
        next_ (None | str): The next page's URL; null: this is the last.
        previous (None | str): The previous page's URL; null: this is the first.
        results (list[LeagueSummary]):
    """

    count: int
    next_: None | str
    previous: None | str
    results: list[LeagueSummary]

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        next_: None | str
        next_ = self.next_

        previous: None | str
        previous = self.previous

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "count": count,
                "next": next_,
                "previous": previous,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.league_summary import LeagueSummary  # noqa: PLC0415

        d = dict(src_dict)
        count = d.pop("count")

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
            results_item = LeagueSummary.from_dict(results_item_data)

            results.append(results_item)

        league_page = cls(
            count=count,
            next_=next_,
            previous=previous,
            results=results,
        )

        return league_page
