from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.plan_move import PlanMove
    from ..models.sheet import Sheet


T = TypeVar("T", bound="SheetAnswered")


@_attrs_define
class SheetAnswered:
    """
    Attributes:
        acted (list[PlanMove]): What your sheet did at once, in the move log's words.
        moves_made (int): Moves the sheets made at once (0 when nothing was due).
        seq (int): The game's seq after them.
        sheet (Sheet): Your round sheet: what GET returns, PUT accepts unchanged (docs/API.md, Round sheets).
    """

    acted: list[PlanMove]
    moves_made: int
    seq: int
    sheet: Sheet

    def to_dict(self) -> dict[str, Any]:
        acted = []
        for acted_item_data in self.acted:
            acted_item = acted_item_data.to_dict()
            acted.append(acted_item)

        moves_made = self.moves_made

        seq = self.seq

        sheet = self.sheet.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "acted": acted,
                "moves_made": moves_made,
                "seq": seq,
                "sheet": sheet,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_move import PlanMove  # noqa: PLC0415
        from ..models.sheet import Sheet  # noqa: PLC0415

        d = dict(src_dict)
        acted = []
        _acted = d.pop("acted")
        for acted_item_data in _acted:
            acted_item = PlanMove.from_dict(acted_item_data)

            acted.append(acted_item)

        moves_made = d.pop("moves_made")

        seq = d.pop("seq")

        sheet = Sheet.from_dict(d.pop("sheet"))

        sheet_answered = cls(
            acted=acted,
            moves_made=moves_made,
            seq=seq,
            sheet=sheet,
        )

        return sheet_answered
