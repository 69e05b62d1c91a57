"""The game's tables, each fact once: resources, market spaces, resupply, income, player counts."""

from __future__ import annotations

from dataclasses import dataclass

from powergrid.shapes import Colour, Resource

#: Resources in their fixed order; a player's or the market's tokens are 4-tuples in this order.
RESOURCES: tuple[Resource, Resource, Resource, Resource] = ("coal", "oil", "garbage", "uranium")
COAL, OIL, GARBAGE, URANIUM = 0, 1, 2, 3

#: Total tokens of each resource in the game.
TOTAL_TOKENS = (24, 24, 24, 12)

STARTING_MONEY = 50

#: The three build spaces of a city, in the order they fill.
BUILD_COSTS = (10, 15, 20)


def _spaces(prices: tuple[int, ...], per_space: int) -> tuple[int, ...]:
    return tuple(p for p in prices for _ in range(per_space))


#: Price of every token place in a full market, cheapest first. The market of one resource is
#: always filled contiguously from the most expensive end, so it is kept as a token count ``m``:
#: the tokens present cost ``MARKET_PRICES[r][-m:]``.
MARKET_PRICES: tuple[tuple[int, ...], ...] = (
    _spaces((1, 2, 3, 4, 5, 6, 7, 8), 3),
    _spaces((1, 2, 3, 4, 5, 6, 7, 8), 3),
    _spaces((1, 2, 3, 4, 5, 6, 7, 8), 3),
    _spaces((1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16), 1),
)
MARKET_CAPACITY = tuple(len(p) for p in MARKET_PRICES)

#: Tokens in the market at the start (base maps): coal 1-8, oil 3-8, garbage 7-8, uranium 14+16.
STARTING_MARKET = (24, 18, 6, 2)

#: Resupply per phase 5: players -> step (1..3) -> tokens per resource.
RESUPPLY: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    2: ((3, 2, 1, 1), (4, 2, 2, 1), (3, 4, 3, 1)),
    3: ((4, 2, 1, 1), (5, 3, 2, 1), (3, 4, 3, 1)),
    4: ((5, 3, 2, 1), (6, 4, 3, 2), (4, 5, 4, 2)),
    5: ((5, 4, 3, 2), (7, 5, 3, 3), (5, 6, 5, 2)),
    6: ((7, 5, 3, 2), (9, 6, 5, 3), (6, 7, 6, 3)),
}

#: Income by cities powered (index); 20 or more pays the last entry.
INCOME = (
    10,
    22,
    33,
    44,
    54,
    64,
    73,
    82,
    90,
    98,
    105,
    112,
    118,
    124,
    129,
    134,
    138,
    142,
    145,
    148,
    150,
)


def income(powered: int) -> int:
    """Elektro paid for powering ``powered`` cities (0 pays 10, 20 or more pay 150)."""
    return INCOME[powered] if powered < len(INCOME) else INCOME[-1]


@dataclass(frozen=True, slots=True)
class PlayerCount:
    """The player-count table's row."""

    areas: int
    max_plants: int
    step2_cities: int
    end_cities: int
    removed_at_setup: int


PLAYER_COUNTS: dict[int, PlayerCount] = {
    2: PlayerCount(3, 4, 10, 21, 8),
    3: PlayerCount(3, 3, 7, 17, 8),
    4: PlayerCount(4, 3, 7, 17, 4),
    5: PlayerCount(5, 3, 7, 15, 0),
    6: PlayerCount(5, 3, 6, 14, 0),
}

#: The first-game variant ends (and caps building) at this many cities.
FIRST_GAME_END = 7

#: Plants in the market: 8 (4 current + 4 future) in steps 1-2, 6 (all current) in step 3.
MARKET_SIZE = 8
CURRENT_SIZE = 4
STEP3_MARKET_SIZE = 6

#: The plant put on top of the deck at setup (base maps).
TOP_PLANT = 13
#: The starting plant market.
STARTING_PLANTS = (3, 4, 5, 6, 7, 8, 9, 10)

#: New Power Plants (seed 001, second half), by printed number. Variant 1 (the new deck alone):
#: the market starts with 01-08 and 11 goes on top of the deck. Variant 2 (both decks): the base
#: 17 and 18 are out of the game, and of the 01-08 of both decks (14 cards) the second card drawn
#: of each number starts in the market, the first leaves the game.
NEW_STARTING_NUMBERS = (1, 2, 3, 4, 5, 6, 7, 8)
NEW_TOP_NUMBER = 11
MIXED_BASE_OUT = (17, 18)

#: Default player colours by seat.
COLOURS: tuple[Colour, ...] = ("red", "blue", "green", "yellow", "purple", "black")


def _prefix(prices: tuple[int, ...]) -> tuple[int, ...]:
    out = [0]
    for p in prices:
        out.append(out[-1] + p)
    return tuple(out)


_PREFIX = tuple(_prefix(p) for p in MARKET_PRICES)


def buy_cost(resource: int, in_market: int, n: int) -> int:
    """Cost of the ``n`` cheapest tokens of a resource when the market holds ``in_market``."""
    start = MARKET_CAPACITY[resource] - in_market
    pre = _PREFIX[resource]
    return pre[start + n] - pre[start]


def market_prices(resource: int, in_market: int) -> list[int]:
    """Prices of the tokens present, cheapest first."""
    if in_market <= 0:
        return []
    return list(MARKET_PRICES[resource][-in_market:])
