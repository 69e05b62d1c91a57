from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.takeback_request import TakebackRequest


T = TypeVar("T", bound="TakebackOffer")


@_attrs_define
class TakebackOffer:
    """What the caller may take back now.

    Attributes:
        cancels (list[int]): The moves it would take back (seqs).
        how (None | str): `now`: POST .../takeback/ takes it back at once; `ask`: the others must agree (POST
            .../takeback/requests/); null: nothing can be taken back (see `refused`).
        left (int): Take-backs the caller may still make alone.
        limit (int): The game's option `takebacks`.
        message (str):
        reason (None | str): Why `ask`: others_moved, plant_drawn or sealed_bids_opened (null with `now`).
        refused (None | str): An error code, when `how` is null.
        request (None | TakebackRequest): The request waiting for answers in this game, if any.
    """

    cancels: list[int]
    how: None | str
    left: int
    limit: int
    message: str
    reason: None | str
    refused: None | str
    request: None | TakebackRequest

    def to_dict(self) -> dict[str, Any]:
        from ..models.takeback_request import TakebackRequest  # noqa: PLC0415

        cancels = self.cancels

        how: None | str
        how = self.how

        left = self.left

        limit = self.limit

        message = self.message

        reason: None | str
        reason = self.reason

        refused: None | str
        refused = self.refused

        request: dict[str, Any] | None
        if isinstance(self.request, TakebackRequest):
            request = self.request.to_dict()
        else:
            request = self.request

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cancels": cancels,
                "how": how,
                "left": left,
                "limit": limit,
                "message": message,
                "reason": reason,
                "refused": refused,
                "request": request,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.takeback_request import TakebackRequest  # noqa: PLC0415

        d = dict(src_dict)
        cancels = cast(list[int], d.pop("cancels"))

        def _parse_how(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        how = _parse_how(d.pop("how"))

        left = d.pop("left")

        limit = d.pop("limit")

        message = d.pop("message")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        def _parse_refused(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        refused = _parse_refused(d.pop("refused"))

        def _parse_request(data: object) -> None | TakebackRequest:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                request_type_0 = TakebackRequest.from_dict(data)

                return request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TakebackRequest, data)

        request = _parse_request(d.pop("request"))

        takeback_offer = cls(
            cancels=cancels,
            how=how,
            left=left,
            limit=limit,
            message=message,
            reason=reason,
            refused=refused,
            request=request,
        )

        return takeback_offer
