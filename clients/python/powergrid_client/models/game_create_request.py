from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.game_options_request import GameOptionsRequest


T = TypeVar("T", bound="GameCreateRequest")


@_attrs_define
class GameCreateRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            map_ (str): A map slug from /api/v1/maps/.
            areas (list[str] | None | Unset): Area slugs in play, or null (default) to draw connected areas at random when
                the game starts.
            max_players (int | Unset):  Default: 4.
            options (GameOptionsRequest | Unset): The bounds come from ``games.services.lobby``, which enforces them for
                every caller.
    """

    map_: str
    areas: list[str] | None | Unset = UNSET
    max_players: int | Unset = 4
    options: GameOptionsRequest | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        map_ = self.map_

        areas: list[str] | None | Unset
        if isinstance(self.areas, Unset):
            areas = UNSET
        elif isinstance(self.areas, list):
            areas = self.areas

        else:
            areas = self.areas

        max_players = self.max_players

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "map": map_,
            }
        )
        if areas is not UNSET:
            field_dict["areas"] = areas
        if max_players is not UNSET:
            field_dict["max_players"] = max_players
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_options_request import GameOptionsRequest  # noqa: PLC0415

        d = dict(src_dict)
        map_ = d.pop("map")

        def _parse_areas(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                areas_type_0 = cast(list[str], data)

                return areas_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        areas = _parse_areas(d.pop("areas", UNSET))

        max_players = d.pop("max_players", UNSET)

        _options = d.pop("options", UNSET)
        options: GameOptionsRequest | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = GameOptionsRequest.from_dict(_options)

        game_create_request = cls(
            map_=map_,
            areas=areas,
            max_players=max_players,
            options=options,
        )

        return game_create_request
