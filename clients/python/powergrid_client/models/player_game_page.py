from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.player_game import PlayerGame


T = TypeVar("T", bound="PlayerGamePage")


@_attrs_define
class PlayerGamePage:
    """One page of the player's finished games, newest first (20 a page).

    Attributes:
        count (int):
        page (int):
        pages (int):
        results (list[PlayerGame]):
    """

    count: int
    page: int
    pages: int
    results: list[PlayerGame]

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        page = self.page

        pages = self.pages

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "count": count,
                "page": page,
                "pages": pages,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_game import PlayerGame  # noqa: PLC0415

        d = dict(src_dict)
        count = d.pop("count")

        page = d.pop("page")

        pages = d.pop("pages")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = PlayerGame.from_dict(results_item_data)

            results.append(results_item)

        player_game_page = cls(
            count=count,
            page=page,
            pages=pages,
            results=results,
        )

        return player_game_page
