"""The shape of everything the engine hands out as JSON: one declaration, read by three parties.

* The engine fills these types (``view``, ``legal``, ``Plant.to_dict``) and mypy --strict checks
  that it fills every key with the right type.
* The server extends the view with its own keys (``games.shapes``: names, ``game``, ``seq``,
  ``deadline``) and its pages read the same objects.
* The server's OpenAPI schema is generated from these classes (``games.api.openapi``): each
  TypedDict is one closed component (``additionalProperties: false``), a ``NotRequired`` key is
  optional, ``X | None`` is nullable, a ``Literal`` an enum, and ``Annotated[..., Doc(...)]``
  gives the field's description. Nothing restates them by hand.

A union of TypedDicts whose members each have a ``type`` of one ``Literal`` value (the legal
moves) is published as ``oneOf`` with a discriminator on ``type``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Generic, Literal, NotRequired, TypedDict, TypeVar


@dataclass(frozen=True, slots=True)
class Doc:
    """A field's description for client authors, attached with ``Annotated[type, Doc("...")]``."""

    text: str


@dataclass(frozen=True, slots=True)
class Named:
    """The component name of a union, attached with ``Annotated[A | B, Named("Name")]``."""

    name: str


Resource = Literal["coal", "oil", "garbage", "uranium"]
Fuel = Literal["coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion"]
Phase = Literal["auction", "resources", "build", "bureaucracy", "finished"]
Variant = Literal["standard", "first_game", "sealed_bid"]
#: The variants that are house rules, not the published game's.
HouseRule = Literal["sealed_bid"]
PlantDeck = Literal["base", "new", "mixed"]
Colour = Literal["red", "blue", "green", "yellow", "purple", "black"]


class Tokens(TypedDict):
    """A count of each resource's tokens (all four always given)."""

    coal: int
    oil: int
    garbage: int
    uranium: int


class ResourcePrices(TypedDict):
    """Per resource, the price of each token present in the market, cheapest first."""

    coal: list[int]
    oil: list[int]
    garbage: list[int]
    uranium: list[int]


class Plant(TypedDict):
    """A power plant card. A New Power Plants card also has ``id`` (100 + number: what actions
    name) and ``deck``; a base card's id is its number."""

    number: int
    fuel: Fuel
    burns: Annotated[int, Doc("Tokens burnt to power (0 for ecological and fusion plants).")]
    powers: Annotated[int, Doc("Cities powered.")]
    id: NotRequired[Annotated[int, Doc("New Power Plants cards only: 100 + number.")]]
    deck: NotRequired[Literal["new"]]


class Step3Card(TypedDict):
    """The Step 3 card, while it sits in the plant market."""

    step3: Literal[True]


class OwnedPlant(Plant):
    """A plant a player owns, with the tokens stored on it (every player's plants carry them)."""

    stored: Annotated[
        dict[Resource, int],
        Doc("Tokens on this plant, per resource it holds ({} for ecological and fusion)."),
    ]


class PlayerView(TypedDict):
    """One player as the viewer sees them (the server adds ``name`` and ``username``)."""

    seat: int
    colour: Colour
    money: Annotated[
        int | None, Doc("The caller's own money; null for everyone else until the game is over.")
    ]
    cities: Annotated[list[str], Doc("The slugs of the cities the player has built in.")]
    plants: list[OwnedPlant]
    resources: Annotated[Tokens, Doc("The player's tokens, summed over their plants.")]


#: A card of the plant market (or the removed pile): a plant, or the Step 3 card.
MarketCard = Annotated[Plant | Step3Card, Named("MarketCard")]


class PlantMarket(TypedDict):
    current: Annotated[list[MarketCard], Doc("Plants that may be put up now.")]
    future: Annotated[list[MarketCard], Doc("The future market (empty from step 3 on).")]


class Auction(TypedDict):
    """The auction under way. ``to_bid`` is the seat whose bid is awaited (null in the
    sealed-bid variant, where every bidder is asked at once)."""

    plant: Plant
    high_bid: int
    high_bidder: int
    bidders: Annotated[list[int], Doc("Seats still in the auction.")]
    to_bid: int | None
    opener: Annotated[int, Doc("The seat that put the plant up.")]
    sealed: NotRequired[Annotated[Literal[True], Doc("Sealed-bid variant only.")]]
    sealed_in: NotRequired[
        Annotated[
            list[int], Doc("Sealed-bid variant: seats whose sealed bid is in (never amounts).")
        ]
    ]
    your_sealed_bid: NotRequired[
        Annotated[int, Doc("Sealed-bid variant: the caller's own sealed bid, once given.")]
    ]


class SealedLast(TypedDict):
    """The last sealed auction, shown to all once every bid was in (sealed-bid variant)."""

    plant: int
    winner: int
    price: int
    bids: Annotated[dict[str, int], Doc("Seat (as a string) to its bid; passes left out.")]


class PendingDiscard(TypedDict):
    """A player won one plant too many and must discard one before the game goes on."""

    seat: int
    plant_bought: int


class ResultRow(TypedDict):
    """One seat's result at the end: cities powered, money, cities connected, rank (1 = won)."""

    seat: int
    powered: int
    money: int
    cities: int
    rank: int


# ---------------------------------------------------------------- maps
class MapArea(TypedDict):
    slug: str
    name_en: str
    name_ja: str


class MapCity(TypedDict):
    slug: str
    name_en: str
    name_ja: str
    area: str
    x: float
    y: float


class MapConnection(TypedDict):
    a: str
    b: str
    cost: int


class Viewbox(TypedDict):
    width: float
    height: float


class MapData(TypedDict):
    """A map's public description (``GameMap.to_dict``)."""

    slug: str
    name_en: str
    name_ja: str
    viewbox: Viewbox
    required_areas: list[str]
    areas: list[MapArea]
    cities: list[MapCity]
    connections: list[MapConnection]


# ---------------------------------------------------------------- legal moves, one per type
class PlantChoice(TypedDict):
    """A plant the caller may put up: name it by ``id`` when given (a New Power Plants card),
    else by ``number``."""

    number: int
    id: NotRequired[int]
    min_bid: int


class ChoosePlantMove(TypedDict):
    type: Literal["choose_plant"]
    plants: list[PlantChoice]
    max_bid: Annotated[int, Doc("The caller's money.")]


class PassAuctionMove(TypedDict):
    type: Literal["pass_auction"]


class BidMove(TypedDict):
    type: Literal["bid"]
    min: int
    max: int


class SealBidMove(TypedDict):
    type: Literal["seal_bid"]
    min: int
    max: int


class PassBidMove(TypedDict):
    type: Literal["pass_bid"]


class DiscardPlantMove(TypedDict):
    type: Literal["discard_plant"]
    plants: Annotated[list[int], Doc("The plants (ids) the caller may discard.")]


class BuyResourcesMove(TypedDict):
    type: Literal["buy_resources"]
    max: Annotated[
        Tokens, Doc("Per resource, the most tokens storage and money allow for it alone.")
    ]
    prices: Annotated[
        dict[Resource, list[int]],
        Doc("Per resource the caller can buy, the price of each of those tokens in turn."),
    ]


class BuildMove(TypedDict):
    type: Literal["build"]
    cities: Annotated[
        dict[str, int], Doc("Every city the caller could add now, with its cost if added alone.")
    ]


class PowerMove(TypedDict):
    type: Literal["power"]
    plants: Annotated[list[int], Doc("The plants (ids) that can fire with the tokens held.")]
    max_cities: Annotated[int, Doc("The most cities the caller can power now.")]


#: One kind of move the caller may send now, with what a client needs to build it.
LegalMove = Annotated[
    ChoosePlantMove
    | PassAuctionMove
    | BidMove
    | SealBidMove
    | PassBidMove
    | DiscardPlantMove
    | BuyResourcesMove
    | BuildMove
    | PowerMove,
    Named("LegalMove"),
]


# ---------------------------------------------------------------- the view
P = TypeVar("P", bound=PlayerView)


class ViewOf(TypedDict, Generic[P]):
    """What one seat (or a spectator) may see, with its players of type ``P``: the engine's own
    (:data:`View`), or the server's, which adds names (``games.shapes.State``)."""

    map: str
    areas: Annotated[list[str], Doc("The areas in play.")]
    variant: Variant
    players_count: int
    round: int
    step: int
    phase: Phase
    order: Annotated[list[int], Doc("Seats in player order.")]
    to_act: Annotated[list[int], Doc("Seats whose move is awaited.")]
    players: Annotated[list[P], Doc("Every player, by seat.")]
    plant_market: PlantMarket
    deck_size: int
    removed: Annotated[
        list[MarketCard],
        Doc("Cards that left the game face up during play (never the set-up's removals)."),
    ]
    step3_card_in_market: bool
    resource_market: ResourcePrices
    supply: Annotated[
        Tokens, Doc("Tokens of each resource beside the board: in neither the market nor a plant.")
    ]
    auction: Auction | None
    sealed_last: NotRequired[SealedLast]
    plant_deck: NotRequired[
        Annotated[
            Literal["new", "mixed"],
            Doc("Only with a New Power Plants deck (absent: the base deck)."),
        ]
    ]
    pending_discard: PendingDiscard | None
    cities: Annotated[
        dict[str, list[int]],
        Doc("Every city in play to the seats in it, in build-space order."),
    ]
    powered: Annotated[list[int], Doc("Per seat: cities powered this round (phase 5).")]
    legal: Annotated[list[LegalMove], Doc("What the caller may send now (empty: nothing).")]
    result: Annotated[list[ResultRow] | None, Doc("At the end, per seat; null until then.")]


#: The engine's view: players without names (the engine knows seats, not people).
View = ViewOf[PlayerView]


def tokens(counts: tuple[int, int, int, int] | list[int]) -> Tokens:
    """Four counts in resource order (coal, oil, garbage, uranium) as a :class:`Tokens`."""
    return {"coal": counts[0], "oil": counts[1], "garbage": counts[2], "uranium": counts[3]}
