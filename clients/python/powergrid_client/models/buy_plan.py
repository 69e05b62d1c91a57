from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.buy_plan_amounts import BuyPlanAmounts


T = TypeVar("T", bound="BuyPlan")


@_attrs_define
class BuyPlan:
    """
    Attributes:
        amounts (BuyPlanAmounts): Tokens wanted per resource.
        kind (Literal['buy']):
        max_price (int): Buy a token only if it costs at most this.
        round_ (int):
    """

    amounts: BuyPlanAmounts
    kind: Literal["buy"]
    max_price: int
    round_: int

    def to_dict(self) -> dict[str, Any]:
        amounts = self.amounts.to_dict()

        kind = self.kind

        max_price = self.max_price

        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amounts": amounts,
                "kind": kind,
                "max_price": max_price,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.buy_plan_amounts import BuyPlanAmounts  # noqa: PLC0415

        d = dict(src_dict)
        amounts = BuyPlanAmounts.from_dict(d.pop("amounts"))

        kind = cast(Literal["buy"], d.pop("kind"))
        if kind != "buy":
            raise ValueError(f"kind must match const 'buy', got '{kind}'")

        max_price = d.pop("max_price")

        round_ = d.pop("round")

        buy_plan = cls(
            amounts=amounts,
            kind=kind,
            max_price=max_price,
            round_=round_,
        )

        return buy_plan
