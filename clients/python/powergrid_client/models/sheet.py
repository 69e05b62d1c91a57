from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.sheet_bid_line import SheetBidLine
    from ..models.sheet_build_line import SheetBuildLine
    from ..models.sheet_discard_line import SheetDiscardLine
    from ..models.sheet_open_line import SheetOpenLine
    from ..models.sheet_pass_line import SheetPassLine
    from ..models.sheet_power_line import SheetPowerLine
    from ..models.sheet_resources_line import SheetResourcesLine


T = TypeVar("T", bound="Sheet")


@_attrs_define
class Sheet:
    """Your round sheet: what GET returns, PUT accepts unchanged (docs/API.md, Round sheets).

    Attributes:
        answered (bool): You answered this round's sheet (read only).
        bids (list[SheetBidLine]):
        build (None | SheetBuildLine):
        deadline (datetime.datetime | None): While due: when the suggestion is played for you if you have not answered
            (the game's turn hours from the round's start, or from when you were asked again); null when not due (read
            only).
        discard (SheetDiscardLine):
        due (bool): The game waits for your answer (read only).
        game (int):
        open_ (list[SheetOpenLine]):
        pass_else (SheetPassLine):
        phase (str): The lines from this phase on play (the sheet for what remains).
        power (SheetPowerLine):
        resources (None | SheetResourcesLine):
        round_ (int): The round it is for: a PUT for another round is refused.
    """

    answered: bool
    bids: list[SheetBidLine]
    build: None | SheetBuildLine
    deadline: datetime.datetime | None
    discard: SheetDiscardLine
    due: bool
    game: int
    open_: list[SheetOpenLine]
    pass_else: SheetPassLine
    phase: str
    power: SheetPowerLine
    resources: None | SheetResourcesLine
    round_: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.sheet_build_line import SheetBuildLine  # noqa: PLC0415
        from ..models.sheet_resources_line import SheetResourcesLine  # noqa: PLC0415

        answered = self.answered

        bids = []
        for bids_item_data in self.bids:
            bids_item = bids_item_data.to_dict()
            bids.append(bids_item)

        build: dict[str, Any] | None
        if isinstance(self.build, SheetBuildLine):
            build = self.build.to_dict()
        else:
            build = self.build

        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        discard = self.discard.to_dict()

        due = self.due

        game = self.game

        open_ = []
        for open_item_data in self.open_:
            open_item = open_item_data.to_dict()
            open_.append(open_item)

        pass_else = self.pass_else.to_dict()

        phase = self.phase

        power = self.power.to_dict()

        resources: dict[str, Any] | None
        if isinstance(self.resources, SheetResourcesLine):
            resources = self.resources.to_dict()
        else:
            resources = self.resources

        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "answered": answered,
                "bids": bids,
                "build": build,
                "deadline": deadline,
                "discard": discard,
                "due": due,
                "game": game,
                "open": open_,
                "pass_else": pass_else,
                "phase": phase,
                "power": power,
                "resources": resources,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sheet_bid_line import SheetBidLine  # noqa: PLC0415
        from ..models.sheet_build_line import SheetBuildLine  # noqa: PLC0415
        from ..models.sheet_discard_line import SheetDiscardLine  # noqa: PLC0415
        from ..models.sheet_open_line import SheetOpenLine  # noqa: PLC0415
        from ..models.sheet_pass_line import SheetPassLine  # noqa: PLC0415
        from ..models.sheet_power_line import SheetPowerLine  # noqa: PLC0415
        from ..models.sheet_resources_line import SheetResourcesLine  # noqa: PLC0415

        d = dict(src_dict)
        answered = d.pop("answered")

        bids = []
        _bids = d.pop("bids")
        for bids_item_data in _bids:
            bids_item = SheetBidLine.from_dict(bids_item_data)

            bids.append(bids_item)

        def _parse_build(data: object) -> None | SheetBuildLine:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                build_type_0 = SheetBuildLine.from_dict(data)

                return build_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SheetBuildLine, data)

        build = _parse_build(d.pop("build"))

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

        discard = SheetDiscardLine.from_dict(d.pop("discard"))

        due = d.pop("due")

        game = d.pop("game")

        open_ = []
        _open_ = d.pop("open")
        for open_item_data in _open_:
            open_item = SheetOpenLine.from_dict(open_item_data)

            open_.append(open_item)

        pass_else = SheetPassLine.from_dict(d.pop("pass_else"))

        phase = d.pop("phase")

        power = SheetPowerLine.from_dict(d.pop("power"))

        def _parse_resources(data: object) -> None | SheetResourcesLine:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resources_type_0 = SheetResourcesLine.from_dict(data)

                return resources_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SheetResourcesLine, data)

        resources = _parse_resources(d.pop("resources"))

        round_ = d.pop("round")

        sheet = cls(
            answered=answered,
            bids=bids,
            build=build,
            deadline=deadline,
            discard=discard,
            due=due,
            game=game,
            open_=open_,
            pass_else=pass_else,
            phase=phase,
            power=power,
            resources=resources,
            round_=round_,
        )

        return sheet
