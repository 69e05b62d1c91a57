"""The power plant market's card: the current and future markets, the auction under way (open
or sealed) and the last sealed auction's bids."""

from __future__ import annotations

from typing import TypedDict

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games.templatetags.names import list_separator, player_link
from games.web.context import Person
from games.web.present import PlantCard, Step3CardView, plant_card
from games.web.present import market_card as plant_view

from .viewing import Viewing


class AuctionView(TypedDict):
    """The declared ``Auction`` with the seats named (``|player``) and its plant drawn."""

    plant: PlantCard
    high_bid: int
    high_bidder: str
    high_bidder_person: Person
    bidders: list[Person]
    sealed: bool
    sealed_in: list[Person]
    your_sealed_bid: int | None


class SealedLastView(TypedDict):
    """The declared ``SealedLast`` with the seats named."""

    plant: int
    winner: Person
    price: int
    bids: SafeString


class MarketCard(TypedDict):
    """``templates/games/cards/market.html``."""

    current: list[PlantCard | Step3CardView]
    future: list[PlantCard | Step3CardView]
    auction: AuctionView | None
    sealed_last: SealedLastView | None


def market_card(view: Viewing) -> MarketCard:
    market = view.state["plant_market"]
    return {
        "current": [plant_view(p) for p in market["current"]],
        "future": [plant_view(p) for p in market["future"]],
        "auction": auction_view(view),
        "sealed_last": sealed_last_view(view),
    }


def auction_view(view: Viewing) -> AuctionView | None:
    auction = view.state["auction"]
    if not auction:
        return None
    return {
        "plant": plant_card(auction["plant"]),
        "high_bid": auction["high_bid"],
        "high_bidder": view.names.get(auction["high_bidder"], "?"),
        "high_bidder_person": view.person(auction["high_bidder"]),
        "bidders": [view.person(s) for s in auction["bidders"]],
        "sealed": bool(auction.get("sealed")),
        "sealed_in": [view.person(s) for s in auction.get("sealed_in") or []],
        "your_sealed_bid": auction.get("your_sealed_bid"),
    }


def sealed_last_view(view: Viewing) -> SealedLastView | None:
    last = view.state.get("sealed_last")
    if not last:
        return None
    return {
        "plant": last["plant"],
        "winner": view.person(last["winner"]),
        "price": last["price"],
        "bids": mark_safe(
            conditional_escape(list_separator()).join(
                format_html("{} {}", player_link(**view.person(int(seat))), amount)
                for seat, amount in sorted(last["bids"].items(), key=lambda kv: -kv[1])
            )
        ),
    }
