from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.state import State
    from ..models.takeback_entry import TakebackEntry
    from ..models.takeback_request import TakebackRequest


T = TypeVar("T", bound="TakebackAnswer")


@_attrs_define
class TakebackAnswer:
    """A request as it stands; set `takeback` and `state` when it was the last acceptance.

    Attributes:
        request (TakebackRequest): A player's request to take back moves, which every other player must accept.
        takeback (None | TakebackEntry):
        state (State | Unset): The state as the caller may see it: the engine's view (`powergrid.view`) with the
            server's keys. Other players' money is null until the end.
    """

    request: TakebackRequest
    takeback: None | TakebackEntry
    state: State | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.takeback_entry import TakebackEntry  # noqa: PLC0415

        request = self.request.to_dict()

        takeback: dict[str, Any] | None
        if isinstance(self.takeback, TakebackEntry):
            takeback = self.takeback.to_dict()
        else:
            takeback = self.takeback

        state: dict[str, Any] | Unset = UNSET
        if not isinstance(self.state, Unset):
            state = self.state.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "request": request,
                "takeback": takeback,
            }
        )
        if state is not UNSET:
            field_dict["state"] = state

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.state import State  # noqa: PLC0415
        from ..models.takeback_entry import TakebackEntry  # noqa: PLC0415
        from ..models.takeback_request import TakebackRequest  # noqa: PLC0415

        d = dict(src_dict)
        request = TakebackRequest.from_dict(d.pop("request"))

        def _parse_takeback(data: object) -> None | TakebackEntry:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                takeback_type_0 = TakebackEntry.from_dict(data)

                return takeback_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TakebackEntry, data)

        takeback = _parse_takeback(d.pop("takeback"))

        _state = d.pop("state", UNSET)
        state: State | Unset
        if isinstance(_state, Unset):
            state = UNSET
        else:
            state = State.from_dict(_state)

        takeback_answer = cls(
            request=request,
            takeback=takeback,
            state=state,
        )

        return takeback_answer
