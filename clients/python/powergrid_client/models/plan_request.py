from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.kind_enum import KindEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_request_amounts import PlanRequestAmounts


T = TypeVar("T", bound="PlanRequest")


@_attrs_define
class PlanRequest:
    """One of the caller's plans (games.plans). Fields by kind; see docs/API.md, Plans.

    Attributes:
        kind (KindEnum): * `proxy_bid` - proxy_bid
            * `auto_pass` - auto_pass
            * `pass_when_nothing` - pass_when_nothing
            * `buy` - buy
            * `build` - build
            * `power` - power
        amounts (PlanRequestAmounts | Unset): buy: tokens wanted per resource, e.g. {"coal": 2, "oil": 1}.
        cities (list[str] | Unset): build: city slugs, built in the cheapest order.
        discard (int | None | Unset): proxy_bid, optional: one of your plants to give up if winning this one is one
            plant too many (its tokens move to the plants you keep where they fit). Absent or null: you are asked when it
            happens.
        max_ (int | Unset): proxy_bid: the most you will pay (at least the plant's number).
        max_price (int | Unset): buy: buy a token only if it costs at most this.
        max_total (int | Unset): build: build only if all of them cost at most this in total.
        plant (int | Unset): proxy_bid: a plant of the market.
        round_ (int | Unset): In answers, for auto_pass, buy, build and power: the round it is for (set by the server,
            ignored in a request: this round while its phase has not passed, else the next).
    """

    kind: KindEnum
    amounts: PlanRequestAmounts | Unset = UNSET
    cities: list[str] | Unset = UNSET
    discard: int | None | Unset = UNSET
    max_: int | Unset = UNSET
    max_price: int | Unset = UNSET
    max_total: int | Unset = UNSET
    plant: int | Unset = UNSET
    round_: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        amounts: dict[str, Any] | Unset = UNSET
        if not isinstance(self.amounts, Unset):
            amounts = self.amounts.to_dict()

        cities: list[str] | Unset = UNSET
        if not isinstance(self.cities, Unset):
            cities = self.cities

        discard: int | None | Unset
        if isinstance(self.discard, Unset):
            discard = UNSET
        else:
            discard = self.discard

        max_ = self.max_

        max_price = self.max_price

        max_total = self.max_total

        plant = self.plant

        round_ = self.round_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if amounts is not UNSET:
            field_dict["amounts"] = amounts
        if cities is not UNSET:
            field_dict["cities"] = cities
        if discard is not UNSET:
            field_dict["discard"] = discard
        if max_ is not UNSET:
            field_dict["max"] = max_
        if max_price is not UNSET:
            field_dict["max_price"] = max_price
        if max_total is not UNSET:
            field_dict["max_total"] = max_total
        if plant is not UNSET:
            field_dict["plant"] = plant
        if round_ is not UNSET:
            field_dict["round"] = round_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_request_amounts import PlanRequestAmounts  # noqa: PLC0415

        d = dict(src_dict)
        kind = KindEnum(d.pop("kind"))

        _amounts = d.pop("amounts", UNSET)
        amounts: PlanRequestAmounts | Unset
        if isinstance(_amounts, Unset):
            amounts = UNSET
        else:
            amounts = PlanRequestAmounts.from_dict(_amounts)

        cities = cast(list[str], d.pop("cities", UNSET))

        def _parse_discard(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        discard = _parse_discard(d.pop("discard", UNSET))

        max_ = d.pop("max", UNSET)

        max_price = d.pop("max_price", UNSET)

        max_total = d.pop("max_total", UNSET)

        plant = d.pop("plant", UNSET)

        round_ = d.pop("round", UNSET)

        plan_request = cls(
            kind=kind,
            amounts=amounts,
            cities=cities,
            discard=discard,
            max_=max_,
            max_price=max_price,
            max_total=max_total,
            plant=plant,
            round_=round_,
        )

        return plan_request
