from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.buy_resources_move_prices import BuyResourcesMovePrices
    from ..models.tokens import Tokens


T = TypeVar("T", bound="BuyResourcesMove")


@_attrs_define
class BuyResourcesMove:
    """
    Attributes:
        max_ (Tokens): A count of each resource's tokens (all four always given).
        prices (BuyResourcesMovePrices): Per resource the caller can buy, the price of each of those tokens in turn.
        type_ (Literal['buy_resources']):
    """

    max_: Tokens
    prices: BuyResourcesMovePrices
    type_: Literal["buy_resources"]

    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_.to_dict()

        prices = self.prices.to_dict()

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "max": max_,
                "prices": prices,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.buy_resources_move_prices import BuyResourcesMovePrices  # noqa: PLC0415
        from ..models.tokens import Tokens  # noqa: PLC0415

        d = dict(src_dict)
        max_ = Tokens.from_dict(d.pop("max"))

        prices = BuyResourcesMovePrices.from_dict(d.pop("prices"))

        type_ = cast(Literal["buy_resources"], d.pop("type"))
        if type_ != "buy_resources":
            raise ValueError(f"type must match const 'buy_resources', got '{type_}'")

        buy_resources_move = cls(
            max_=max_,
            prices=prices,
            type_=type_,
        )

        return buy_resources_move
