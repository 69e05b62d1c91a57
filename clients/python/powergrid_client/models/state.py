from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.new_plant_deck_enum import NewPlantDeckEnum
from ..models.phase_enum import PhaseEnum
from ..models.variant_enum import VariantEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.auction import Auction
    from ..models.bid_move import BidMove
    from ..models.build_move import BuildMove
    from ..models.buy_resources_move import BuyResourcesMove
    from ..models.choose_plant_move import ChoosePlantMove
    from ..models.discard_plant_move import DiscardPlantMove
    from ..models.pass_auction_move import PassAuctionMove
    from ..models.pass_bid_move import PassBidMove
    from ..models.pending_discard import PendingDiscard
    from ..models.plant import Plant
    from ..models.plant_market import PlantMarket
    from ..models.player import Player
    from ..models.power_move import PowerMove
    from ..models.resource_prices import ResourcePrices
    from ..models.result_row import ResultRow
    from ..models.seal_bid_move import SealBidMove
    from ..models.sealed_last import SealedLast
    from ..models.state_cities import StateCities
    from ..models.step_3_card import Step3Card
    from ..models.tokens import Tokens


T = TypeVar("T", bound="State")


@_attrs_define
class State:
    """The state as the caller may see it: the engine's view (`powergrid.view`) with the server's keys. Other players'
    money is null until the end.

        Attributes:
            areas (list[str]): The areas in play.
            auction (Auction | None):
            cities (StateCities): Every city in play to the seats in it, in build-space order.
            deadline (datetime.datetime | None): Earliest deadline of the awaited seats (UTC).
            deck_size (int):
            game (int): The game id.
            legal (list[BidMove | BuildMove | BuyResourcesMove | ChoosePlantMove | DiscardPlantMove | PassAuctionMove |
                PassBidMove | PowerMove | SealBidMove]): What the caller may send now (empty: nothing).
            map_ (str):
            order (list[int]): Seats in player order.
            pending_discard (None | PendingDiscard):
            phase (PhaseEnum):
            plant_market (PlantMarket):
            players (list[Player]): Every player, by seat.
            players_count (int):
            powered (list[int]): Per seat: cities powered this round (phase 5).
            removed (list[Plant | Step3Card]): Cards that left the game face up during play (never the set-up's removals).
            resource_market (ResourcePrices): Per resource, the price of each token present in the market, cheapest first.
            result (list[ResultRow] | None): At the end, per seat; null until then.
            round_ (int):
            seat (int | None): The caller's seat, null if none.
            seq (int): Moves so far: send it as expected_seq.
            step (int):
            step3_card_in_market (bool):
            supply (Tokens): A count of each resource's tokens (all four always given).
            to_act (list[int]): Seats whose move is awaited.
            variant (VariantEnum):
            plant_deck (NewPlantDeckEnum | Unset):
            sealed_last (SealedLast | Unset): The last sealed auction, shown to all once every bid was in (sealed-bid
                variant).
    """

    areas: list[str]
    auction: Auction | None
    cities: StateCities
    deadline: datetime.datetime | None
    deck_size: int
    game: int
    legal: list[
        BidMove
        | BuildMove
        | BuyResourcesMove
        | ChoosePlantMove
        | DiscardPlantMove
        | PassAuctionMove
        | PassBidMove
        | PowerMove
        | SealBidMove
    ]
    map_: str
    order: list[int]
    pending_discard: None | PendingDiscard
    phase: PhaseEnum
    plant_market: PlantMarket
    players: list[Player]
    players_count: int
    powered: list[int]
    removed: list[Plant | Step3Card]
    resource_market: ResourcePrices
    result: list[ResultRow] | None
    round_: int
    seat: int | None
    seq: int
    step: int
    step3_card_in_market: bool
    supply: Tokens
    to_act: list[int]
    variant: VariantEnum
    plant_deck: NewPlantDeckEnum | Unset = UNSET
    sealed_last: SealedLast | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.auction import Auction  # noqa: PLC0415
        from ..models.bid_move import BidMove  # noqa: PLC0415
        from ..models.build_move import BuildMove  # noqa: PLC0415
        from ..models.buy_resources_move import BuyResourcesMove  # noqa: PLC0415
        from ..models.choose_plant_move import ChoosePlantMove  # noqa: PLC0415
        from ..models.discard_plant_move import DiscardPlantMove  # noqa: PLC0415
        from ..models.pass_auction_move import PassAuctionMove  # noqa: PLC0415
        from ..models.pass_bid_move import PassBidMove  # noqa: PLC0415
        from ..models.pending_discard import PendingDiscard  # noqa: PLC0415
        from ..models.plant import Plant  # noqa: PLC0415
        from ..models.seal_bid_move import SealBidMove  # noqa: PLC0415

        areas = self.areas

        auction: dict[str, Any] | None
        if isinstance(self.auction, Auction):
            auction = self.auction.to_dict()
        else:
            auction = self.auction

        cities = self.cities.to_dict()

        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        deck_size = self.deck_size

        game = self.game

        legal = []
        for legal_item_data in self.legal:
            legal_item: dict[str, Any]
            if isinstance(legal_item_data, ChoosePlantMove):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, PassAuctionMove):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, BidMove):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, SealBidMove):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, PassBidMove):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, DiscardPlantMove):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, BuyResourcesMove):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, BuildMove):
                legal_item = legal_item_data.to_dict()
            else:
                legal_item = legal_item_data.to_dict()

            legal.append(legal_item)

        map_ = self.map_

        order = self.order

        pending_discard: dict[str, Any] | None
        if isinstance(self.pending_discard, PendingDiscard):
            pending_discard = self.pending_discard.to_dict()
        else:
            pending_discard = self.pending_discard

        phase = self.phase.value

        plant_market = self.plant_market.to_dict()

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        players_count = self.players_count

        powered = self.powered

        removed = []
        for removed_item_data in self.removed:
            removed_item: dict[str, Any]
            if isinstance(removed_item_data, Plant):
                removed_item = removed_item_data.to_dict()
            else:
                removed_item = removed_item_data.to_dict()

            removed.append(removed_item)

        resource_market = self.resource_market.to_dict()

        result: list[dict[str, Any]] | None
        if isinstance(self.result, list):
            result = []
            for result_type_0_item_data in self.result:
                result_type_0_item = result_type_0_item_data.to_dict()
                result.append(result_type_0_item)

        else:
            result = self.result

        round_ = self.round_

        seat: int | None
        seat = self.seat

        seq = self.seq

        step = self.step

        step3_card_in_market = self.step3_card_in_market

        supply = self.supply.to_dict()

        to_act = self.to_act

        variant = self.variant.value

        plant_deck: str | Unset = UNSET
        if not isinstance(self.plant_deck, Unset):
            plant_deck = self.plant_deck.value

        sealed_last: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sealed_last, Unset):
            sealed_last = self.sealed_last.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "areas": areas,
                "auction": auction,
                "cities": cities,
                "deadline": deadline,
                "deck_size": deck_size,
                "game": game,
                "legal": legal,
                "map": map_,
                "order": order,
                "pending_discard": pending_discard,
                "phase": phase,
                "plant_market": plant_market,
                "players": players,
                "players_count": players_count,
                "powered": powered,
                "removed": removed,
                "resource_market": resource_market,
                "result": result,
                "round": round_,
                "seat": seat,
                "seq": seq,
                "step": step,
                "step3_card_in_market": step3_card_in_market,
                "supply": supply,
                "to_act": to_act,
                "variant": variant,
            }
        )
        if plant_deck is not UNSET:
            field_dict["plant_deck"] = plant_deck
        if sealed_last is not UNSET:
            field_dict["sealed_last"] = sealed_last

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.auction import Auction  # noqa: PLC0415
        from ..models.bid_move import BidMove  # noqa: PLC0415
        from ..models.build_move import BuildMove  # noqa: PLC0415
        from ..models.buy_resources_move import BuyResourcesMove  # noqa: PLC0415
        from ..models.choose_plant_move import ChoosePlantMove  # noqa: PLC0415
        from ..models.discard_plant_move import DiscardPlantMove  # noqa: PLC0415
        from ..models.pass_auction_move import PassAuctionMove  # noqa: PLC0415
        from ..models.pass_bid_move import PassBidMove  # noqa: PLC0415
        from ..models.pending_discard import PendingDiscard  # noqa: PLC0415
        from ..models.plant import Plant  # noqa: PLC0415
        from ..models.plant_market import PlantMarket  # noqa: PLC0415
        from ..models.player import Player  # noqa: PLC0415
        from ..models.power_move import PowerMove  # noqa: PLC0415
        from ..models.resource_prices import ResourcePrices  # noqa: PLC0415
        from ..models.result_row import ResultRow  # noqa: PLC0415
        from ..models.seal_bid_move import SealBidMove  # noqa: PLC0415
        from ..models.sealed_last import SealedLast  # noqa: PLC0415
        from ..models.state_cities import StateCities  # noqa: PLC0415
        from ..models.step_3_card import Step3Card  # noqa: PLC0415
        from ..models.tokens import Tokens  # noqa: PLC0415

        d = dict(src_dict)
        areas = cast(list[str], d.pop("areas"))

        def _parse_auction(data: object) -> Auction | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                auction_type_0 = Auction.from_dict(data)

                return auction_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Auction | None, data)

        auction = _parse_auction(d.pop("auction"))

        cities = StateCities.from_dict(d.pop("cities"))

        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

        deck_size = d.pop("deck_size")

        game = d.pop("game")

        legal = []
        _legal = d.pop("legal")
        for legal_item_data in _legal:

            def _parse_legal_item(
                data: object,
            ) -> (
                BidMove
                | BuildMove
                | BuyResourcesMove
                | ChoosePlantMove
                | DiscardPlantMove
                | PassAuctionMove
                | PassBidMove
                | PowerMove
                | SealBidMove
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_0 = ChoosePlantMove.from_dict(data)

                    return componentsschemas_legal_move_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_1 = PassAuctionMove.from_dict(data)

                    return componentsschemas_legal_move_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_2 = BidMove.from_dict(data)

                    return componentsschemas_legal_move_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_3 = SealBidMove.from_dict(data)

                    return componentsschemas_legal_move_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_4 = PassBidMove.from_dict(data)

                    return componentsschemas_legal_move_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_5 = DiscardPlantMove.from_dict(data)

                    return componentsschemas_legal_move_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_6 = BuyResourcesMove.from_dict(data)

                    return componentsschemas_legal_move_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_legal_move_type_7 = BuildMove.from_dict(data)

                    return componentsschemas_legal_move_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_legal_move_type_8 = PowerMove.from_dict(data)

                return componentsschemas_legal_move_type_8

            legal_item = _parse_legal_item(legal_item_data)

            legal.append(legal_item)

        map_ = d.pop("map")

        order = cast(list[int], d.pop("order"))

        def _parse_pending_discard(data: object) -> None | PendingDiscard:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pending_discard_type_0 = PendingDiscard.from_dict(data)

                return pending_discard_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PendingDiscard, data)

        pending_discard = _parse_pending_discard(d.pop("pending_discard"))

        phase = PhaseEnum(d.pop("phase"))

        plant_market = PlantMarket.from_dict(d.pop("plant_market"))

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = Player.from_dict(players_item_data)

            players.append(players_item)

        players_count = d.pop("players_count")

        powered = cast(list[int], d.pop("powered"))

        removed = []
        _removed = d.pop("removed")
        for removed_item_data in _removed:

            def _parse_removed_item(data: object) -> Plant | Step3Card:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_market_card_type_0 = Plant.from_dict(data)

                    return componentsschemas_market_card_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_market_card_type_1 = Step3Card.from_dict(data)

                return componentsschemas_market_card_type_1

            removed_item = _parse_removed_item(removed_item_data)

            removed.append(removed_item)

        resource_market = ResourcePrices.from_dict(d.pop("resource_market"))

        def _parse_result(data: object) -> list[ResultRow] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                result_type_0 = []
                _result_type_0 = data
                for result_type_0_item_data in _result_type_0:
                    result_type_0_item = ResultRow.from_dict(result_type_0_item_data)

                    result_type_0.append(result_type_0_item)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ResultRow] | None, data)

        result = _parse_result(d.pop("result"))

        round_ = d.pop("round")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        seq = d.pop("seq")

        step = d.pop("step")

        step3_card_in_market = d.pop("step3_card_in_market")

        supply = Tokens.from_dict(d.pop("supply"))

        to_act = cast(list[int], d.pop("to_act"))

        variant = VariantEnum(d.pop("variant"))

        _plant_deck = d.pop("plant_deck", UNSET)
        plant_deck: NewPlantDeckEnum | Unset
        if isinstance(_plant_deck, Unset):
            plant_deck = UNSET
        else:
            plant_deck = NewPlantDeckEnum(_plant_deck)

        _sealed_last = d.pop("sealed_last", UNSET)
        sealed_last: SealedLast | Unset
        if isinstance(_sealed_last, Unset):
            sealed_last = UNSET
        else:
            sealed_last = SealedLast.from_dict(_sealed_last)

        state = cls(
            areas=areas,
            auction=auction,
            cities=cities,
            deadline=deadline,
            deck_size=deck_size,
            game=game,
            legal=legal,
            map_=map_,
            order=order,
            pending_discard=pending_discard,
            phase=phase,
            plant_market=plant_market,
            players=players,
            players_count=players_count,
            powered=powered,
            removed=removed,
            resource_market=resource_market,
            result=result,
            round_=round_,
            seat=seat,
            seq=seq,
            step=step,
            step3_card_in_market=step3_card_in_market,
            supply=supply,
            to_act=to_act,
            variant=variant,
            plant_deck=plant_deck,
            sealed_last=sealed_last,
        )

        return state
