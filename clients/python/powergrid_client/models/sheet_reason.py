from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.sheet_reason_params import SheetReasonParams


T = TypeVar("T", bound="SheetReason")


@_attrs_define
class SheetReason:
    """Why the suggestion says so: a code (for programs), its parameters, and in words.

    Attributes:
        code (str):
        params (SheetReasonParams):
        text (str): In the reader's language (the API: English).
    """

    code: str
    params: SheetReasonParams
    text: str

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        params = self.params.to_dict()

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "params": params,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sheet_reason_params import SheetReasonParams  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        params = SheetReasonParams.from_dict(d.pop("params"))

        text = d.pop("text")

        sheet_reason = cls(
            code=code,
            params=params,
            text=text,
        )

        return sheet_reason
