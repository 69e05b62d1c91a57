from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.game_options_request import GameOptionsRequest


T = TypeVar("T", bound="GameCreateRequest")


@_attrs_define
class GameCreateRequest:
    """
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
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

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
        field_dict.update(self.additional_properties)
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

        game_create_request.additional_properties = d
        return game_create_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
