from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="OpenPlan")


@_attrs_define
class OpenPlan:
    """
    Attributes:
        choices (list[list[int]]): [plant, max] pairs in order of preference: when it is your turn to open an auction,
            the first offered within its max is opened at its minimum, then bid for up to max.
        kind (Literal['open']):
        round_ (int):
        discard (int | Unset): One of your plants to give up if a plant won is one too many.
        others_pass (bool | Unset): Pass auctions for plants neither listed nor under a proxy bid.
        pass_else (bool | Unset): None of them offered: pass (true, the default) or be asked.
    """

    choices: list[list[int]]
    kind: Literal["open"]
    round_: int
    discard: int | Unset = UNSET
    others_pass: bool | Unset = UNSET
    pass_else: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        choices = []
        for choices_item_data in self.choices:
            choices_item = choices_item_data

            choices.append(choices_item)

        kind = self.kind

        round_ = self.round_

        discard = self.discard

        others_pass = self.others_pass

        pass_else = self.pass_else

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "choices": choices,
                "kind": kind,
                "round": round_,
            }
        )
        if discard is not UNSET:
            field_dict["discard"] = discard
        if others_pass is not UNSET:
            field_dict["others_pass"] = others_pass
        if pass_else is not UNSET:
            field_dict["pass_else"] = pass_else

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        choices = []
        _choices = d.pop("choices")
        for choices_item_data in _choices:
            choices_item = cast(list[int], choices_item_data)

            choices.append(choices_item)

        kind = cast(Literal["open"], d.pop("kind"))
        if kind != "open":
            raise ValueError(f"kind must match const 'open', got '{kind}'")

        round_ = d.pop("round")

        discard = d.pop("discard", UNSET)

        others_pass = d.pop("others_pass", UNSET)

        pass_else = d.pop("pass_else", UNSET)

        open_plan = cls(
            choices=choices,
            kind=kind,
            round_=round_,
            discard=discard,
            others_pass=others_pass,
            pass_else=pass_else,
        )

        return open_plan
