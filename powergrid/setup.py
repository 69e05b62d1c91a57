"""Setting up a game: areas in play, the deck, the markets, money and the first player order."""

from __future__ import annotations

import random
import secrets
from itertools import combinations

from powergrid.errors import IllegalAction
from powergrid.maps import GameMap, load_map
from powergrid.network import board_for
from powergrid.plants import PLANTS, STEP3
from powergrid.state import AUCTION, VARIANTS, Player, State
from powergrid.tables import (
    PLAYER_COUNTS,
    STARTING_MARKET,
    STARTING_MONEY,
    STARTING_PLANTS,
    TOP_PLANT,
)


def legal_area_sets(gmap: GameMap, count: int) -> list[tuple[str, ...]]:
    """Every choice of ``count`` areas forming one connected group, sorted."""
    out = []
    for combo in combinations(sorted(gmap.areas), count):
        if gmap.required_areas <= set(combo) and gmap.areas_connected(combo):
            out.append(combo)
    return out


def _check_areas(gmap: GameMap, areas: object, count: int) -> tuple[str, ...]:
    if not isinstance(areas, (list, tuple)) or not all(type(a) is str for a in areas):
        raise IllegalAction("invalid_field", "The areas must be a list of area names.")
    chosen = tuple(sorted(set(areas)))
    if len(chosen) != len(areas):
        raise IllegalAction("invalid_field", "An area is named twice.")
    unknown = [a for a in chosen if a not in gmap.areas]
    if unknown:
        raise IllegalAction(
            "invalid_field",
            f"Unknown area {unknown[0]!r} on the map {gmap.slug!r}.",
            {"known": sorted(gmap.areas)},
        )
    if len(chosen) != count:
        raise IllegalAction(
            "invalid_field",
            f"This player count plays on {count} areas, not {len(chosen)}.",
            {"count": count},
        )
    if not gmap.areas_connected(chosen):
        raise IllegalAction("invalid_field", "The areas in play must form one connected group.")
    missing = gmap.required_areas - set(chosen)
    if missing:
        raise IllegalAction(
            "invalid_field", f"The area {sorted(missing)[0]!r} must be in play on this map."
        )
    return chosen


def new_game(
    map: str = "germany",
    players: int = 4,
    seed: int | str | None = None,
    areas: list[str] | tuple[str, ...] | None = None,
    variant: str = "standard",
) -> State:
    """A new game. ``areas`` None picks a random legal set from the seed; ``seed`` None picks a
    fresh random seed (kept, secret, in the state)."""
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise IllegalAction("invalid_field", "A game has 2 to 6 players.", {"min": 2, "max": 6})
    if variant not in VARIANTS:
        raise IllegalAction(
            "invalid_field", f"Unknown variant {variant!r}.", {"known": list(VARIANTS)}
        )
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int and type(seed) is not str:
        raise IllegalAction("invalid_field", "The seed must be an integer or a string.")
    if type(map) is not str:
        raise IllegalAction("invalid_field", "The map must be a map name.")
    try:
        gmap = load_map(map)
    except KeyError:
        raise IllegalAction("invalid_field", f"Unknown map {map!r}.") from None
    table = PLAYER_COUNTS[players]
    # Areas draw from a stream of their own, so a game set up with the areas it once drew at
    # random (a replay, a fixture) gets the same deck and order as the original.
    rng = random.Random(f"{seed}:setup")
    if areas is None:
        choices = legal_area_sets(gmap, table.areas)
        chosen = choices[random.Random(f"{seed}:areas").randrange(len(choices))]
    else:
        chosen = _check_areas(gmap, areas, table.areas)

    # Deck: 13 and the Step 3 card aside, shuffle, remove some face down, 13 on top, Step 3 under.
    rest = [n for n in PLANTS if n not in STARTING_PLANTS and n != TOP_PLANT]
    rng.shuffle(rest)
    k = table.removed_at_setup
    setup_removed = tuple(rest[:k])
    deck = (TOP_PLANT, *rest[k:], STEP3)
    order = list(range(players))
    rng.shuffle(order)

    s = State.__new__(State)
    s.map = gmap.slug
    s.areas = chosen
    s.variant = variant
    s.seed = seed
    s.n = players
    s.round = 1
    s.step = 1
    s.phase = AUCTION
    s.order = tuple(order)
    s.players = tuple(Player(STARTING_MONEY) for _ in range(players))
    s.market = STARTING_PLANTS
    s.deck = deck
    s.removed = ()
    s.setup_removed = setup_removed
    s.resources = STARTING_MARKET
    s.cities = {}
    s.done = (False,) * players
    s.bought_any = False
    s.auction = None
    s.discard = None
    s.turn = 0
    s.step3_next = False
    s.powered = (0,) * players
    s.result = None
    s.board = board_for(gmap.slug, chosen)
    return s
