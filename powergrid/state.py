"""The immutable game state.

A :class:`State` (and each :class:`Player` in it) is never changed after the engine hands it out:
``apply`` makes a shallow copy, replaces the parts a move changes with new tuples, and shares the
rest with the old state. Containers inside are tuples, except ``cities`` (a dict that is replaced
wholesale, never mutated, once a state is published). Treat states as read-only values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from powergrid.tables import TOTAL_TOKENS
from powergrid.text import gettext_noop

if TYPE_CHECKING:
    from powergrid.network import Board

# Phase names, as shown in the view.
AUCTION = "auction"
RESOURCES = "resources"
BUILD = "build"
BUREAUCRACY = "bureaucracy"
FINISHED = "finished"

#: Every phase, in the order of a round, with its English label (translated by the server) and
#: its number in the rules (phase 1, the player order, takes no moves).
PHASES: dict[str, tuple[str, int | None]] = {
    AUCTION: (gettext_noop("Auction"), 2),
    RESOURCES: (gettext_noop("Buying resources"), 3),
    BUILD: (gettext_noop("Building"), 4),
    BUREAUCRACY: (gettext_noop("Bureaucracy"), 5),
    FINISHED: (gettext_noop("Finished"), None),
}

STANDARD = "standard"
FIRST_GAME = "first_game"
#: The standard rules with sealed-bid auctions: after a plant is put up, every other player
#: still in the round's auctions gives one sealed bid at the same time (awaited all at once, as
#: in phase 5); the highest wins and pays the second-highest bid plus one (never more than its
#: own bid); ties go to the earlier in player order. Bids stay hidden until all are in.
SEALED_BID = "sealed_bid"
#: The rule variants a game may be played with.
VARIANTS = (STANDARD, FIRST_GAME, SEALED_BID)
#: Variants that are house rules, not the published game: seed 001 says a bid may not be
#: hidden (入札価格を伏せて競りに参加することはできません). Offered because they shorten a
#: game by email, always opt-in and named as house rules wherever a game's rules are shown.
HOUSE_RULES = (SEALED_BID,)

#: The plant decks (seed 001, second half: the New Power Plants expansion). ``base``: the base
#: game's deck. ``new`` (variant 1): the new deck alone; plants 01-08 start the market, 11 on top
#: (out of the game on the France map). ``mixed`` (variant 2): both decks without the base 17, 18;
#: of each number only one card plays, the second one drawn (the first leaves the game, face up).
#: Variant 3 (the big plants 52-60) and variant 4 (a deck of one's own) are not offered: the seed
#: gives neither the big plants' cards nor a fixed deck for variant 4.
BASE_DECK = "base"
NEW_DECK = "new"
MIXED_DECK = "mixed"
PLANT_DECKS = (BASE_DECK, NEW_DECK, MIXED_DECK)


_T = TypeVar("_T")

#: A player's fields (what :meth:`Player.replace` may change).
PLAYER_FIELDS = ("money", "plants", "res", "cities")


def _changed(copy: _T, changes: dict[str, Any], fields: tuple[str, ...]) -> _T:
    """``copy`` (a fresh copy) with ``changes`` set; a name not in ``fields`` is refused."""
    for key, value in changes.items():
        if key not in fields:
            raise TypeError(f"{type(copy).__name__} has no field {key!r}")
        setattr(copy, key, value)
    return copy


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

    def replace(self, **changes: Any) -> Player:
        """A new player with some fields changed (see :meth:`State.replace`)."""
        return _changed(self.copy(), changes, PLAYER_FIELDS)

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

    __slots__ = ("bid", "bidders", "high", "opener", "plant", "sealed", "turn")

    plant: int
    bid: int
    high: int
    bidders: tuple[int, ...]
    turn: int
    opener: int
    #: Sealed-bid variant: per seat, its sealed bid (-1: not given yet, 0: passed); the opener's
    #: is its opening bid. None in an open auction.
    sealed: tuple[int, ...] | None

    def __init__(
        self,
        plant: int,
        bid: int,
        high: int,
        bidders: tuple[int, ...],
        turn: int,
        opener: int,
        sealed: tuple[int, ...] | None = None,
    ) -> None:
        self.plant = plant
        self.bid = bid
        self.high = high
        self.bidders = bidders  # seats still in this auction, in seat order
        self.turn = turn  # the seat whose bid is awaited
        self.opener = opener
        self.sealed = sealed

    def _key(self) -> tuple[Any, ...]:
        return (self.plant, self.bid, self.high, self.bidders, self.turn, self.opener, self.sealed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Auction):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        text = "Auction(plant={}, bid={}, high={}, bidders={}, turn={}, opener={}".format(
            *self._key()
        )
        return text + (")" if self.sealed is None else f", sealed={self.sealed})")


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
    "sealed_last",
    "plant_deck",
    "edition",
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
      sealed_last                       - sealed-bid variant: the last sealed auction, public
                                          once resolved: (plant, winner, price, bid per seat)
      plant_deck                        - the plant deck played (``PLANT_DECKS``)
      edition                           - the rules edition it is played by
                                          (``powergrid.editions``), fixed at set-up
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
    sealed_last: tuple[int, int, int, tuple[int, ...]] | None
    plant_deck: str
    edition: int
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
        s.sealed_last = self.sealed_last
        s.plant_deck = self.plant_deck
        s.edition = self.edition
        s.board = self.board
        return s

    def replace(self, **changes: Any) -> State:
        """A new state with some fields changed, the rest shared: the public way to build a
        position (a test's, a puzzle's) from one the engine made. Unknown fields are refused.

        >>> import powergrid
        >>> s = powergrid.new_game(map="germany", players=3, seed=1)
        >>> t = s.replace(round=2)
        >>> (s.round, t.round, t.order == s.order)
        (1, 2, True)
        """
        return _changed(self.copy(), changes, (*_FIELDS, "board"))

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
