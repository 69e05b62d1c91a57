from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.plant_deck_choice import PlantDeckChoice
from ..models.variant_enum import VariantEnum

if TYPE_CHECKING:
    from ..models.logged_bid import LoggedBid
    from ..models.logged_build import LoggedBuild
    from ..models.logged_buy_resources import LoggedBuyResources
    from ..models.logged_choose_plant import LoggedChoosePlant
    from ..models.logged_discard_plant import LoggedDiscardPlant
    from ..models.logged_pass_auction import LoggedPassAuction
    from ..models.logged_pass_bid import LoggedPassBid
    from ..models.logged_power import LoggedPower
    from ..models.logged_seal_bid import LoggedSealBid
    from ..models.logged_takeback import LoggedTakeback
    from ..models.result_row import ResultRow
    from ..models.takeback_entry import TakebackEntry


T = TypeVar("T", bound="GameRecord")


@_attrs_define
class GameRecord:
    """A finished game's record: `python -m powergrid verify record.json` checks it.

    Attributes:
        areas (list[str] | None): null: drawn from the seed.
        commitment (str):
        edition (int): The rules edition (see the game's `rules_edition`); `python -m powergrid verify` sets the game up
            with it.
        game_id (int):
        house_rules (list[Literal['sealed_bid']]): The variant when it is a house rule, not the published game's.
        map_ (str):
        moves (list[list[int | LoggedBid | LoggedBuild | LoggedBuyResources | LoggedChoosePlant | LoggedDiscardPlant |
            LoggedPassAuction | LoggedPassBid | LoggedPower | LoggedSealBid | LoggedTakeback]]): [seat, action] in the order
            played, take-backs among them.
        plant_deck (PlantDeckChoice):
        players (int): The number of players.
        result (list[ResultRow]):
        seed (int):
        takebacks (list[TakebackEntry]): The take-backs among the moves.
        variant (VariantEnum):
    """

    areas: list[str] | None
    commitment: str
    edition: int
    game_id: int
    house_rules: list[Literal["sealed_bid"]]
    map_: str
    moves: list[
        list[
            int
            | LoggedBid
            | LoggedBuild
            | LoggedBuyResources
            | LoggedChoosePlant
            | LoggedDiscardPlant
            | LoggedPassAuction
            | LoggedPassBid
            | LoggedPower
            | LoggedSealBid
            | LoggedTakeback
        ]
    ]
    plant_deck: PlantDeckChoice
    players: int
    result: list[ResultRow]
    seed: int
    takebacks: list[TakebackEntry]
    variant: VariantEnum

    def to_dict(self) -> dict[str, Any]:
        from ..models.logged_bid import LoggedBid  # noqa: PLC0415
        from ..models.logged_build import LoggedBuild  # noqa: PLC0415
        from ..models.logged_buy_resources import LoggedBuyResources  # noqa: PLC0415
        from ..models.logged_choose_plant import LoggedChoosePlant  # noqa: PLC0415
        from ..models.logged_discard_plant import LoggedDiscardPlant  # noqa: PLC0415
        from ..models.logged_pass_auction import LoggedPassAuction  # noqa: PLC0415
        from ..models.logged_pass_bid import LoggedPassBid  # noqa: PLC0415
        from ..models.logged_power import LoggedPower  # noqa: PLC0415
        from ..models.logged_seal_bid import LoggedSealBid  # noqa: PLC0415
        from ..models.logged_takeback import LoggedTakeback  # noqa: PLC0415

        areas: list[str] | None
        if isinstance(self.areas, list):
            areas = self.areas

        else:
            areas = self.areas

        commitment = self.commitment

        edition = self.edition

        game_id = self.game_id

        house_rules = self.house_rules

        map_ = self.map_

        moves = []
        for moves_item_data in self.moves:
            moves_item = []
            for moves_item_item_data in moves_item_data:
                moves_item_item: dict[str, Any] | int
                if isinstance(moves_item_item_data, LoggedChoosePlant):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedPassAuction):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedBid):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedSealBid):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedPassBid):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedDiscardPlant):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedBuyResources):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedBuild):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedPower):
                    moves_item_item = moves_item_item_data.to_dict()
                elif isinstance(moves_item_item_data, LoggedTakeback):
                    moves_item_item = moves_item_item_data.to_dict()
                else:
                    moves_item_item = moves_item_item_data
                moves_item.append(moves_item_item)

            moves.append(moves_item)

        plant_deck = self.plant_deck.value

        players = self.players

        result = []
        for result_item_data in self.result:
            result_item = result_item_data.to_dict()
            result.append(result_item)

        seed = self.seed

        takebacks = []
        for takebacks_item_data in self.takebacks:
            takebacks_item = takebacks_item_data.to_dict()
            takebacks.append(takebacks_item)

        variant = self.variant.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "areas": areas,
                "commitment": commitment,
                "edition": edition,
                "game_id": game_id,
                "house_rules": house_rules,
                "map": map_,
                "moves": moves,
                "plant_deck": plant_deck,
                "players": players,
                "result": result,
                "seed": seed,
                "takebacks": takebacks,
                "variant": variant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.logged_bid import LoggedBid  # noqa: PLC0415
        from ..models.logged_build import LoggedBuild  # noqa: PLC0415
        from ..models.logged_buy_resources import LoggedBuyResources  # noqa: PLC0415
        from ..models.logged_choose_plant import LoggedChoosePlant  # noqa: PLC0415
        from ..models.logged_discard_plant import LoggedDiscardPlant  # noqa: PLC0415
        from ..models.logged_pass_auction import LoggedPassAuction  # noqa: PLC0415
        from ..models.logged_pass_bid import LoggedPassBid  # noqa: PLC0415
        from ..models.logged_power import LoggedPower  # noqa: PLC0415
        from ..models.logged_seal_bid import LoggedSealBid  # noqa: PLC0415
        from ..models.logged_takeback import LoggedTakeback  # noqa: PLC0415
        from ..models.result_row import ResultRow  # noqa: PLC0415
        from ..models.takeback_entry import TakebackEntry  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_areas(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                areas_type_0 = cast(list[str], data)

                return areas_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        areas = _parse_areas(d.pop("areas"))

        commitment = d.pop("commitment")

        edition = d.pop("edition")

        game_id = d.pop("game_id")

        house_rules = []
        _house_rules = d.pop("house_rules")
        for house_rules_item_data in _house_rules:
            house_rules_item = cast(Literal["sealed_bid"], house_rules_item_data)
            if house_rules_item != "sealed_bid":
                raise ValueError(f"house_rules_item must match const 'sealed_bid', got '{house_rules_item}'")
            house_rules.append(house_rules_item)

        map_ = d.pop("map")

        moves = []
        _moves = d.pop("moves")
        for moves_item_data in _moves:
            moves_item = []
            _moves_item = moves_item_data
            for moves_item_item_data in _moves_item:

                def _parse_moves_item_item(
                    data: object,
                ) -> (
                    int
                    | LoggedBid
                    | LoggedBuild
                    | LoggedBuyResources
                    | LoggedChoosePlant
                    | LoggedDiscardPlant
                    | LoggedPassAuction
                    | LoggedPassBid
                    | LoggedPower
                    | LoggedSealBid
                    | LoggedTakeback
                ):
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_0 = LoggedChoosePlant.from_dict(data)

                        return componentsschemas_logged_action_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_1 = LoggedPassAuction.from_dict(data)

                        return componentsschemas_logged_action_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_2 = LoggedBid.from_dict(data)

                        return componentsschemas_logged_action_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_3 = LoggedSealBid.from_dict(data)

                        return componentsschemas_logged_action_type_3
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_4 = LoggedPassBid.from_dict(data)

                        return componentsschemas_logged_action_type_4
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_5 = LoggedDiscardPlant.from_dict(data)

                        return componentsschemas_logged_action_type_5
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_6 = LoggedBuyResources.from_dict(data)

                        return componentsschemas_logged_action_type_6
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_7 = LoggedBuild.from_dict(data)

                        return componentsschemas_logged_action_type_7
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_8 = LoggedPower.from_dict(data)

                        return componentsschemas_logged_action_type_8
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_logged_action_type_9 = LoggedTakeback.from_dict(data)

                        return componentsschemas_logged_action_type_9
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(
                        int
                        | LoggedBid
                        | LoggedBuild
                        | LoggedBuyResources
                        | LoggedChoosePlant
                        | LoggedDiscardPlant
                        | LoggedPassAuction
                        | LoggedPassBid
                        | LoggedPower
                        | LoggedSealBid
                        | LoggedTakeback,
                        data,
                    )

                moves_item_item = _parse_moves_item_item(moves_item_item_data)

                moves_item.append(moves_item_item)

            moves.append(moves_item)

        plant_deck = PlantDeckChoice(d.pop("plant_deck"))

        players = d.pop("players")

        result = []
        _result = d.pop("result")
        for result_item_data in _result:
            result_item = ResultRow.from_dict(result_item_data)

            result.append(result_item)

        seed = d.pop("seed")

        takebacks = []
        _takebacks = d.pop("takebacks")
        for takebacks_item_data in _takebacks:
            takebacks_item = TakebackEntry.from_dict(takebacks_item_data)

            takebacks.append(takebacks_item)

        variant = VariantEnum(d.pop("variant"))

        game_record = cls(
            areas=areas,
            commitment=commitment,
            edition=edition,
            game_id=game_id,
            house_rules=house_rules,
            map_=map_,
            moves=moves,
            plant_deck=plant_deck,
            players=players,
            result=result,
            seed=seed,
            takebacks=takebacks,
            variant=variant,
        )

        return game_record
