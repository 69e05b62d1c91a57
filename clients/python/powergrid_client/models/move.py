from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.source_enum import SourceEnum

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


T = TypeVar("T", bound="Move")


@_attrs_define
class Move:
    """One move of the log.

    Attributes:
        action (LoggedBid | LoggedBuild | LoggedBuyResources | LoggedChoosePlant | LoggedDiscardPlant |
            LoggedPassAuction | LoggedPassBid | LoggedPower | LoggedSealBid | LoggedTakeback):
        seat (int):
        seq (int):
        source (SourceEnum):
        time (datetime.datetime):
    """

    action: (
        LoggedBid
        | LoggedBuild
        | LoggedBuyResources
        | LoggedChoosePlant
        | LoggedDiscardPlant
        | LoggedPassAuction
        | LoggedPassBid
        | LoggedPower
        | LoggedSealBid
        | LoggedTakeback
    )
    seat: int
    seq: int
    source: SourceEnum
    time: datetime.datetime

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

        action: dict[str, Any]
        if isinstance(self.action, LoggedChoosePlant):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedPassAuction):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedBid):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedSealBid):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedPassBid):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedDiscardPlant):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedBuyResources):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedBuild):
            action = self.action.to_dict()
        elif isinstance(self.action, LoggedPower):
            action = self.action.to_dict()
        else:
            action = self.action.to_dict()

        seat = self.seat

        seq = self.seq

        source = self.source.value

        time = self.time.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "seat": seat,
                "seq": seq,
                "source": source,
                "time": time,
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

        d = dict(src_dict)

        def _parse_action(
            data: object,
        ) -> (
            LoggedBid
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
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_logged_action_type_9 = LoggedTakeback.from_dict(data)

            return componentsschemas_logged_action_type_9

        action = _parse_action(d.pop("action"))

        seat = d.pop("seat")

        seq = d.pop("seq")

        source = SourceEnum(d.pop("source"))

        time = datetime.datetime.fromisoformat(d.pop("time"))

        move = cls(
            action=action,
            seat=seat,
            seq=seq,
            source=source,
            time=time,
        )

        return move
