from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.bid_action_request import BidActionRequest
    from ..models.build_action_request import BuildActionRequest
    from ..models.buy_resources_action_request import BuyResourcesActionRequest
    from ..models.choose_plant_action_request import ChoosePlantActionRequest
    from ..models.discard_plant_action_request import DiscardPlantActionRequest
    from ..models.pass_auction_action_request import PassAuctionActionRequest
    from ..models.pass_bid_action_request import PassBidActionRequest
    from ..models.power_action_request import PowerActionRequest
    from ..models.seal_bid_action_request import SealBidActionRequest


T = TypeVar("T", bound="MoveSubmitRequest")


@_attrs_define
class MoveSubmitRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            action (BidActionRequest | BuildActionRequest | BuyResourcesActionRequest | ChoosePlantActionRequest |
                DiscardPlantActionRequest | PassAuctionActionRequest | PassBidActionRequest | PowerActionRequest |
                SealBidActionRequest):
            expected_seq (int): The game's seq you based the move on; 409 stale_state if the game moved on.
    """

    action: (
        BidActionRequest
        | BuildActionRequest
        | BuyResourcesActionRequest
        | ChoosePlantActionRequest
        | DiscardPlantActionRequest
        | PassAuctionActionRequest
        | PassBidActionRequest
        | PowerActionRequest
        | SealBidActionRequest
    )
    expected_seq: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.bid_action_request import BidActionRequest  # noqa: PLC0415
        from ..models.build_action_request import BuildActionRequest  # noqa: PLC0415
        from ..models.buy_resources_action_request import BuyResourcesActionRequest  # noqa: PLC0415
        from ..models.choose_plant_action_request import ChoosePlantActionRequest  # noqa: PLC0415
        from ..models.discard_plant_action_request import DiscardPlantActionRequest  # noqa: PLC0415
        from ..models.pass_auction_action_request import PassAuctionActionRequest  # noqa: PLC0415
        from ..models.pass_bid_action_request import PassBidActionRequest  # noqa: PLC0415
        from ..models.seal_bid_action_request import SealBidActionRequest  # noqa: PLC0415

        action: dict[str, Any]
        if isinstance(self.action, ChoosePlantActionRequest):
            action = self.action.to_dict()
        elif isinstance(self.action, PassAuctionActionRequest):
            action = self.action.to_dict()
        elif isinstance(self.action, BidActionRequest):
            action = self.action.to_dict()
        elif isinstance(self.action, SealBidActionRequest):
            action = self.action.to_dict()
        elif isinstance(self.action, PassBidActionRequest):
            action = self.action.to_dict()
        elif isinstance(self.action, DiscardPlantActionRequest):
            action = self.action.to_dict()
        elif isinstance(self.action, BuyResourcesActionRequest):
            action = self.action.to_dict()
        elif isinstance(self.action, BuildActionRequest):
            action = self.action.to_dict()
        else:
            action = self.action.to_dict()

        expected_seq = self.expected_seq

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "expected_seq": expected_seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bid_action_request import BidActionRequest  # noqa: PLC0415
        from ..models.build_action_request import BuildActionRequest  # noqa: PLC0415
        from ..models.buy_resources_action_request import BuyResourcesActionRequest  # noqa: PLC0415
        from ..models.choose_plant_action_request import ChoosePlantActionRequest  # noqa: PLC0415
        from ..models.discard_plant_action_request import DiscardPlantActionRequest  # noqa: PLC0415
        from ..models.pass_auction_action_request import PassAuctionActionRequest  # noqa: PLC0415
        from ..models.pass_bid_action_request import PassBidActionRequest  # noqa: PLC0415
        from ..models.power_action_request import PowerActionRequest  # noqa: PLC0415
        from ..models.seal_bid_action_request import SealBidActionRequest  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_action(
            data: object,
        ) -> (
            BidActionRequest
            | BuildActionRequest
            | BuyResourcesActionRequest
            | ChoosePlantActionRequest
            | DiscardPlantActionRequest
            | PassAuctionActionRequest
            | PassBidActionRequest
            | PowerActionRequest
            | SealBidActionRequest
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_0 = ChoosePlantActionRequest.from_dict(data)

                return componentsschemas_action_request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_1 = PassAuctionActionRequest.from_dict(data)

                return componentsschemas_action_request_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_2 = BidActionRequest.from_dict(data)

                return componentsschemas_action_request_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_3 = SealBidActionRequest.from_dict(data)

                return componentsschemas_action_request_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_4 = PassBidActionRequest.from_dict(data)

                return componentsschemas_action_request_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_5 = DiscardPlantActionRequest.from_dict(data)

                return componentsschemas_action_request_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_6 = BuyResourcesActionRequest.from_dict(data)

                return componentsschemas_action_request_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_7 = BuildActionRequest.from_dict(data)

                return componentsschemas_action_request_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_action_request_type_8 = PowerActionRequest.from_dict(data)

            return componentsschemas_action_request_type_8

        action = _parse_action(d.pop("action"))

        expected_seq = d.pop("expected_seq")

        move_submit_request = cls(
            action=action,
            expected_seq=expected_seq,
        )

        return move_submit_request
