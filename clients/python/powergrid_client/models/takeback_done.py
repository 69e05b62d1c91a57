from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.state import State
    from ..models.takeback_entry import TakebackEntry


T = TypeVar("T", bound="TakebackDone")


@_attrs_define
class TakebackDone:
    """A take-back made: its entry, and the state now (as after a move).

    Attributes:
        state (State): The state as the caller may see it: the engine's view (`powergrid.view`) with the server's keys.
            Other players' money is null until the end.
        takeback (TakebackEntry): A take-back in the log: the move log shows it as an entry whose action is `{"type":
            "takeback", "cancels": [...], "accepted_by": [...]}`.
    """

    state: State
    takeback: TakebackEntry

    def to_dict(self) -> dict[str, Any]:
        state = self.state.to_dict()

        takeback = self.takeback.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
                "takeback": takeback,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.state import State  # noqa: PLC0415
        from ..models.takeback_entry import TakebackEntry  # noqa: PLC0415

        d = dict(src_dict)
        state = State.from_dict(d.pop("state"))

        takeback = TakebackEntry.from_dict(d.pop("takeback"))

        takeback_done = cls(
            state=state,
            takeback=takeback,
        )

        return takeback_done
