"""The immutable game state.

A :class:`State` (and each :class:`Player` in it) is never changed after the engine hands it out:
``apply`` makes a shallow copy, replaces the parts a move changes with new tuples, and shares the
rest with the old state. Containers inside are tuples, except ``cities`` (a dict that is replaced
wholesale, never mutated, once a state is published). Treat states as read-only values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from powergrid.tables import TOTAL_TOKENS

if TYPE_CHECKING:
    from powergrid.network import Board

# Phase names, as shown in the view.
AUCTION = "auction"
RESOURCES = "resources"
BUILD = "build"
BUREAUCRACY = "bureaucracy"
FINISHED = "finished"

STANDARD = "standard"
FIRST_GAME = "first_game"
VARIANTS = (STANDARD, FIRST_GAME)


class Player:
    """One seat's holdings. ``res`` counts tokens (coal, oil, garbage, uranium) over all plants."""

    __slots__ = ("cities", "money", "plants", "res")

    money: int
    plants: tuple[int, ...]
    res: tuple[int, int, int, int]
    cities: tuple[str, ...]

    def __init__(
        self,
        money: int,
        plants: tuple[int, ...] = (),
        res: tuple[int, int, int, int] = (0, 0, 0, 0),
        cities: tuple[str, ...] = (),
    ) -> None:
        self.money = money
        self.plants = plants  # sorted ascending
        self.res = res
        self.cities = cities  # in the order built

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.money = self.money
        p.plants = self.plants
        p.res = self.res
        p.cities = self.cities
        return p

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Player):
            return NotImplemented
        return (
            self.money == other.money
            and self.plants == other.plants
            and self.res == other.res
            and self.cities == other.cities
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Player(money={self.money}, plants={self.plants}, res={self.res}, "
            f"cities={self.cities})"
        )


class Auction:
    """The auction under way: the plant, the high bid and bidder, who is still in, whose turn."""

    __slots__ = ("bid", "bidders", "high", "opener", "plant", "turn")

    plant: int
    bid: int
    high: int
    bidders: tuple[int, ...]
    turn: int
    opener: int

    def __init__(
        self, plant: int, bid: int, high: int, bidders: tuple[int, ...], turn: int, opener: int
    ) -> None:
        self.plant = plant
        self.bid = bid
        self.high = high
        self.bidders = bidders  # seats still in this auction, in seat order
        self.turn = turn  # the seat whose bid is awaited
        self.opener = opener

    def _key(self) -> tuple[int, int, int, tuple[int, ...], int, int]:
        return (self.plant, self.bid, self.high, self.bidders, self.turn, self.opener)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Auction):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "Auction(plant={}, bid={}, high={}, bidders={}, turn={}, opener={})".format(
            *self._key()
        )


_FIELDS = (
    "map",
    "areas",
    "variant",
    "seed",
    "n",
    "round",
    "step",
    "phase",
    "order",
    "players",
    "market",
    "deck",
    "removed",
    "setup_removed",
    "resources",
    "cities",
    "done",
    "bought_any",
    "auction",
    "discard",
    "turn",
    "step3_next",
    "powered",
    "result",
)


class State:
    """A complete game position (including its secrets: seed, deck order, setup removals).

    Fields:
      map, areas, variant, seed, n      - the setup (n: number of players)
      round, step, phase                - where the game is
      order                             - seats in player order
      players                           - tuple of :class:`Player` by seat
      market                            - plant market, sorted (Step 3 card = ``STEP3``)
      deck                              - plant deck, top first (secret order)
      removed                           - plants removed from the game during play
      setup_removed                     - plants removed face down at setup (secret)
      resources                         - tokens in the resource market (coal, oil, ...)
      cities                            - occupied city slug -> seats in build-space order
      done                              - per seat: out of this round's auctions (phase 2)
                                          or has powered (phase 5)
      bought_any                        - somebody bought a plant in this phase 2
      auction                           - the :class:`Auction` under way, or None
      discard                           - (seat, plant just bought) awaiting a discard
      turn                              - index into the reversed order (phases 3 and 4)
      step3_next                        - Step 3 card drawn in phase 4: step 3 from phase 5
      powered                           - per seat: cities powered this round (phase 5)
      result                            - at the end: per seat (powered, money, cities, rank)
    """

    __slots__ = (*_FIELDS, "board")

    map: str
    areas: tuple[str, ...]
    variant: str
    seed: int | str
    n: int
    round: int
    step: int
    phase: str
    order: tuple[int, ...]
    players: tuple[Player, ...]
    market: tuple[int, ...]
    deck: tuple[int, ...]
    removed: tuple[int, ...]
    setup_removed: tuple[int, ...]
    resources: tuple[int, int, int, int]
    cities: dict[str, tuple[int, ...]]
    done: tuple[bool, ...]
    bought_any: bool
    auction: Auction | None
    discard: tuple[int, int] | None
    turn: int
    step3_next: bool
    powered: tuple[int, ...]
    result: tuple[tuple[int, int, int, int], ...] | None
    board: Board

    def copy(self) -> State:
        """A shallow copy, to be changed by the engine before it is published."""
        s = State.__new__(State)
        s.map = self.map
        s.areas = self.areas
        s.variant = self.variant
        s.seed = self.seed
        s.n = self.n
        s.round = self.round
        s.step = self.step
        s.phase = self.phase
        s.order = self.order
        s.players = self.players
        s.market = self.market
        s.deck = self.deck
        s.removed = self.removed
        s.setup_removed = self.setup_removed
        s.resources = self.resources
        s.cities = self.cities
        s.done = self.done
        s.bought_any = self.bought_any
        s.auction = self.auction
        s.discard = self.discard
        s.turn = self.turn
        s.step3_next = self.step3_next
        s.powered = self.powered
        s.result = self.result
        s.board = self.board
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"State(map={self.map!r}, round={self.round}, step={self.step}, "
            f"phase={self.phase!r}, order={self.order})"
        )

    # -- small derived facts used everywhere -------------------------------------------------
    @property
    def first_game(self) -> bool:
        return self.variant == FIRST_GAME

    def max_cities(self) -> int:
        """The most cities any player has connected."""
        top = 0
        for p in self.players:
            k = len(p.cities)
            if k > top:
                top = k
        return top

    def supply(self) -> tuple[int, int, int, int]:
        """Tokens beside the board: the total minus the market minus what players hold."""
        c, o, g, u = TOTAL_TOKENS
        m = self.resources
        c -= m[0]
        o -= m[1]
        g -= m[2]
        u -= m[3]
        for p in self.players:
            r = p.res
            c -= r[0]
            o -= r[1]
            g -= r[2]
            u -= r[3]
        return (c, o, g, u)


FIELDS = _FIELDS
