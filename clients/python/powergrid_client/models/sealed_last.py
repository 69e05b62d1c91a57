from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.sealed_last_bids import SealedLastBids


T = TypeVar("T", bound="SealedLast")


@_attrs_define
class SealedLast:
    """The last sealed auction, shown to all once every bid was in (sealed-bid variant).

    Attributes:
        bids (SealedLastBids): Seat (as a string) to its bid; passes left out.
        plant (int):
        price (int):
        winner (int):
    """

    bids: SealedLastBids
    plant: int
    price: int
    winner: int

    def to_dict(self) -> dict[str, Any]:
        bids = self.bids.to_dict()

        plant = self.plant

        price = self.price

        winner = self.winner

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bids": bids,
                "plant": plant,
                "price": price,
                "winner": winner,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sealed_last_bids import SealedLastBids  # noqa: PLC0415

        d = dict(src_dict)
        bids = SealedLastBids.from_dict(d.pop("bids"))

        plant = d.pop("plant")

        price = d.pop("price")

        winner = d.pop("winner")

        sealed_last = cls(
            bids=bids,
            plant=plant,
            price=price,
            winner=winner,
        )

        return sealed_last
