from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sheet_bid_line_request import SheetBidLineRequest
    from ..models.sheet_build_line_request import SheetBuildLineRequest
    from ..models.sheet_discard_line_request import SheetDiscardLineRequest
    from ..models.sheet_open_line_request import SheetOpenLineRequest
    from ..models.sheet_pass_line_request import SheetPassLineRequest
    from ..models.sheet_power_line_request import SheetPowerLineRequest
    from ..models.sheet_resources_line_request import SheetResourcesLineRequest


T = TypeVar("T", bound="SheetRequest")


@_attrs_define
class SheetRequest:
    """Your round sheet: what GET returns, PUT accepts unchanged (docs/API.md, Round sheets).

    Attributes:
        bids (list[SheetBidLineRequest]):
        build (None | SheetBuildLineRequest):
        discard (SheetDiscardLineRequest):
        open_ (list[SheetOpenLineRequest]):
        pass_else (SheetPassLineRequest):
        power (SheetPowerLineRequest):
        resources (None | SheetResourcesLineRequest):
        round_ (int): The round it is for: a PUT for another round is refused.
        answered (bool | Unset): You answered this round's sheet (read only).
        deadline (datetime.datetime | None | Unset): While due: when the suggestion is played for you if you have not
            answered (the game's turn hours from the round's start, or from when you were asked again); null when not due
            (read only).
        due (bool | Unset): The game waits for your answer (read only).
        game (int | Unset):
        phase (str | Unset): The lines from this phase on play (the sheet for what remains).
    """

    bids: list[SheetBidLineRequest]
    build: None | SheetBuildLineRequest
    discard: SheetDiscardLineRequest
    open_: list[SheetOpenLineRequest]
    pass_else: SheetPassLineRequest
    power: SheetPowerLineRequest
    resources: None | SheetResourcesLineRequest
    round_: int
    answered: bool | Unset = UNSET
    deadline: datetime.datetime | None | Unset = UNSET
    due: bool | Unset = UNSET
    game: int | Unset = UNSET
    phase: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.sheet_build_line_request import SheetBuildLineRequest  # noqa: PLC0415
        from ..models.sheet_resources_line_request import SheetResourcesLineRequest  # noqa: PLC0415

        bids = []
        for bids_item_data in self.bids:
            bids_item = bids_item_data.to_dict()
            bids.append(bids_item)

        build: dict[str, Any] | None
        if isinstance(self.build, SheetBuildLineRequest):
            build = self.build.to_dict()
        else:
            build = self.build

        discard = self.discard.to_dict()

        open_ = []
        for open_item_data in self.open_:
            open_item = open_item_data.to_dict()
            open_.append(open_item)

        pass_else = self.pass_else.to_dict()

        power = self.power.to_dict()

        resources: dict[str, Any] | None
        if isinstance(self.resources, SheetResourcesLineRequest):
            resources = self.resources.to_dict()
        else:
            resources = self.resources

        round_ = self.round_

        answered = self.answered

        deadline: None | str | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        elif isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        due = self.due

        game = self.game

        phase = self.phase

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bids": bids,
                "build": build,
                "discard": discard,
                "open": open_,
                "pass_else": pass_else,
                "power": power,
                "resources": resources,
                "round": round_,
            }
        )
        if answered is not UNSET:
            field_dict["answered"] = answered
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if due is not UNSET:
            field_dict["due"] = due
        if game is not UNSET:
            field_dict["game"] = game
        if phase is not UNSET:
            field_dict["phase"] = phase

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sheet_bid_line_request import SheetBidLineRequest  # noqa: PLC0415
        from ..models.sheet_build_line_request import SheetBuildLineRequest  # noqa: PLC0415
        from ..models.sheet_discard_line_request import SheetDiscardLineRequest  # noqa: PLC0415
        from ..models.sheet_open_line_request import SheetOpenLineRequest  # noqa: PLC0415
        from ..models.sheet_pass_line_request import SheetPassLineRequest  # noqa: PLC0415
        from ..models.sheet_power_line_request import SheetPowerLineRequest  # noqa: PLC0415
        from ..models.sheet_resources_line_request import SheetResourcesLineRequest  # noqa: PLC0415

        d = dict(src_dict)
        bids = []
        _bids = d.pop("bids")
        for bids_item_data in _bids:
            bids_item = SheetBidLineRequest.from_dict(bids_item_data)

            bids.append(bids_item)

        def _parse_build(data: object) -> None | SheetBuildLineRequest:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                build_type_0 = SheetBuildLineRequest.from_dict(data)

                return build_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SheetBuildLineRequest, data)

        build = _parse_build(d.pop("build"))

        discard = SheetDiscardLineRequest.from_dict(d.pop("discard"))

        open_ = []
        _open_ = d.pop("open")
        for open_item_data in _open_:
            open_item = SheetOpenLineRequest.from_dict(open_item_data)

            open_.append(open_item)

        pass_else = SheetPassLineRequest.from_dict(d.pop("pass_else"))

        power = SheetPowerLineRequest.from_dict(d.pop("power"))

        def _parse_resources(data: object) -> None | SheetResourcesLineRequest:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resources_type_0 = SheetResourcesLineRequest.from_dict(data)

                return resources_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SheetResourcesLineRequest, data)

        resources = _parse_resources(d.pop("resources"))

        round_ = d.pop("round")

        answered = d.pop("answered", UNSET)

        def _parse_deadline(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deadline = _parse_deadline(d.pop("deadline", UNSET))

        due = d.pop("due", UNSET)

        game = d.pop("game", UNSET)

        phase = d.pop("phase", UNSET)

        sheet_request = cls(
            bids=bids,
            build=build,
            discard=discard,
            open_=open_,
            pass_else=pass_else,
            power=power,
            resources=resources,
            round_=round_,
            answered=answered,
            deadline=deadline,
            due=due,
            game=game,
            phase=phase,
        )

        return sheet_request
