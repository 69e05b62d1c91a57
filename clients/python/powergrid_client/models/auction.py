from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plant import Plant


T = TypeVar("T", bound="Auction")


@_attrs_define
class Auction:
    """The auction under way. `to_bid` is the seat whose bid is awaited (null in the sealed-bid variant, where every bidder
    is asked at once).

        Attributes:
            bidders (list[int]): Seats still in the auction.
            high_bid (int):
            high_bidder (int):
            opener (int): The seat that put the plant up.
            plant (Plant): A power plant card. A New Power Plants card also has `id` (100 + number: what actions name) and
                `deck`; a base card's id is its number.
            to_bid (int | None):
            sealed (bool | Unset): Sealed-bid variant only. Always `true`.
            sealed_in (list[int] | Unset): Sealed-bid variant: seats whose sealed bid is in (never amounts).
            your_sealed_bid (int | Unset): Sealed-bid variant: the caller's own sealed bid, once given.
    """

    bidders: list[int]
    high_bid: int
    high_bidder: int
    opener: int
    plant: Plant
    to_bid: int | None
    sealed: bool | Unset = UNSET
    sealed_in: list[int] | Unset = UNSET
    your_sealed_bid: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bidders = self.bidders

        high_bid = self.high_bid

        high_bidder = self.high_bidder

        opener = self.opener

        plant = self.plant.to_dict()

        to_bid: int | None
        to_bid = self.to_bid

        sealed = self.sealed

        sealed_in: list[int] | Unset = UNSET
        if not isinstance(self.sealed_in, Unset):
            sealed_in = self.sealed_in

        your_sealed_bid = self.your_sealed_bid

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bidders": bidders,
                "high_bid": high_bid,
                "high_bidder": high_bidder,
                "opener": opener,
                "plant": plant,
                "to_bid": to_bid,
            }
        )
        if sealed is not UNSET:
            field_dict["sealed"] = sealed
        if sealed_in is not UNSET:
            field_dict["sealed_in"] = sealed_in
        if your_sealed_bid is not UNSET:
            field_dict["your_sealed_bid"] = your_sealed_bid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plant import Plant  # noqa: PLC0415

        d = dict(src_dict)
        bidders = cast(list[int], d.pop("bidders"))

        high_bid = d.pop("high_bid")

        high_bidder = d.pop("high_bidder")

        opener = d.pop("opener")

        plant = Plant.from_dict(d.pop("plant"))

        def _parse_to_bid(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        to_bid = _parse_to_bid(d.pop("to_bid"))

        sealed = d.pop("sealed", UNSET)

        sealed_in = cast(list[int], d.pop("sealed_in", UNSET))

        your_sealed_bid = d.pop("your_sealed_bid", UNSET)

        auction = cls(
            bidders=bidders,
            high_bid=high_bid,
            high_bidder=high_bidder,
            opener=opener,
            plant=plant,
            to_bid=to_bid,
            sealed=sealed,
            sealed_in=sealed_in,
            your_sealed_bid=your_sealed_bid,
        )

        return auction
