"""Setting up a game: areas in play, the deck, the markets, money and the first player order."""

from __future__ import annotations

import random
import secrets
from itertools import combinations

from powergrid import editions
from powergrid.errors import IllegalAction
from powergrid.map_rules import MapRules, rules_for
from powergrid.maps import GameMap, load_map
from powergrid.network import board_for, cities_connected
from powergrid.plants import BASE_PLANTS, NEW_PLANTS, PLANTS, RANK, STEP3
from powergrid.state import (
    AUCTION,
    BASE_DECK,
    MIXED_DECK,
    NEW_DECK,
    PLANT_DECKS,
    VARIANTS,
    Player,
    State,
)
from powergrid.tables import (
    MIXED_BASE_OUT,
    NEW_STARTING_NUMBERS,
    NEW_TOP_NUMBER,
    PLAYER_COUNTS,
    STARTING_MONEY,
    STARTING_PLANTS,
)

#: What a deck's set-up gives: the market, the deck (top first), plants out of the game face up
#: (public) and face down (secret).
DeckSetup = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _new_deck(rules: MapRules, removed_at_setup: int, rng: random.Random) -> DeckSetup:
    """Variant 1, the New Power Plants deck alone: the base rules with 01-08 in the market and
    11 on top (the map may take numbers out: France its 11, then nothing goes on top)."""
    out = tuple(i for i, p in NEW_PLANTS.items() if p.number in rules.new_deck_removed)
    market = tuple(i for i, p in NEW_PLANTS.items() if p.number in NEW_STARTING_NUMBERS)
    top = tuple(i for i, p in NEW_PLANTS.items() if p.number == NEW_TOP_NUMBER and i not in out)
    rest = [i for i in NEW_PLANTS if i not in market and i not in top and i not in out]
    rng.shuffle(rest)
    k = removed_at_setup
    return market, (*top, *rest[k:], STEP3), out, tuple(rest[:k])


def _mixed_deck(removed_at_setup: int, rng: random.Random) -> DeckSetup:
    """Variant 2, both decks: the base 17 and 18 out (face up; the new deck has none); the 14
    cards 01-08 drawn one by one, the first of each number out of the game (face up), the second
    into the market (01 and 02 have no twin: they always start). The rest shuffled, Step 3
    under, no card on top. The setup removal draws on through the deck and takes out pairs of
    one number (both cards, face up) until the player count's number of pairs is out; the other
    cards stay where they were."""
    gone = [i for i, p in BASE_PLANTS.items() if p.number in MIXED_BASE_OUT]
    pool = [i for i in BASE_PLANTS if i not in gone] + list(NEW_PLANTS)
    small = [i for i in pool if PLANTS[i].number in NEW_STARTING_NUMBERS]
    rng.shuffle(small)
    market: list[int] = []
    out: list[int] = []
    seen: set[int] = set()
    for i in small:
        number = PLANTS[i].number
        if number in seen or not any(PLANTS[j].number == number for j in small if j != i):
            market.append(i)
        else:
            out.append(i)
        seen.add(number)
    rest = [i for i in pool if i not in small]
    rng.shuffle(rest)
    first: dict[int, int] = {}
    pairs: list[int] = []
    for i in rest:
        if len(pairs) == 2 * removed_at_setup:
            break
        number = PLANTS[i].number
        if number in first:
            pairs += [first.pop(number), i]
        else:
            first[number] = i
    deck = [i for i in rest if i not in pairs]
    market.sort(key=RANK.__getitem__)
    return tuple(market), (*deck, STEP3), (*gone, *out, *pairs), ()


def legal_area_sets(gmap: GameMap, count: int) -> list[tuple[str, ...]]:
    """Every choice of ``count`` areas that can be played, sorted: the required areas in, the
    areas one group of neighbours, and their cities one network through cities in play (two
    neighbouring areas may still be joined only through a city outside them)."""
    out = []
    for combo in combinations(sorted(gmap.areas), count):
        if (
            gmap.required_areas <= set(combo)
            and gmap.areas_connected(combo)
            and cities_connected(gmap.slug, combo)
        ):
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
    if not cities_connected(gmap.slug, chosen):
        raise IllegalAction(
            "areas_not_connected",
            "The cities of these areas are not one network: some can be reached only through "
            "cities outside them, so the game could not end. Choose other areas.",
            {"areas": list(chosen)},
        )
    return chosen


def new_game(
    map: str = "germany",
    players: int = 4,
    seed: int | str | None = None,
    areas: list[str] | tuple[str, ...] | None = None,
    variant: str = "standard",
    plant_deck: str = BASE_DECK,
    edition: int = editions.LATEST,
) -> State:
    """A new game. ``areas`` None picks a random legal set from the seed; ``seed`` None picks a
    fresh random seed (kept, secret, in the state). The same arguments give the same game.
    ``edition``: the rules edition (``powergrid.editions``); a recorded game passes its own.

    >>> s = new_game(map="germany", players=3, seed=7)
    >>> s.phase, s.round, s.n, len(s.areas)
    ('auction', 1, 3, 3)
    >>> new_game(map="germany", players=3, seed=7).order == s.order
    True
    """
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise IllegalAction("invalid_field", "A game has 2 to 6 players.", {"min": 2, "max": 6})
    if variant not in VARIANTS:
        raise IllegalAction(
            "invalid_field", f"Unknown variant {variant!r}.", {"known": list(VARIANTS)}
        )
    if plant_deck not in PLANT_DECKS:
        raise IllegalAction(
            "invalid_field", f"Unknown plant deck {plant_deck!r}.", {"known": list(PLANT_DECKS)}
        )
    ed = editions.edition(edition)
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

    # Deck: the top plant (13; France: 11) and the Step 3 card aside, and the plants the edition
    # takes out of the game on this map; shuffle, remove some face down, the top plant on top,
    # Step 3 under.
    rules = rules_for(gmap.slug)
    if plant_deck == NEW_DECK:
        market, deck, removed, setup_removed = _new_deck(rules, table.removed_at_setup, rng)
    elif plant_deck == MIXED_DECK:
        market, deck, removed, setup_removed = _mixed_deck(table.removed_at_setup, rng)
    else:
        top = rules.top_plant
        out = ed.removed_plants(gmap.slug)
        rest = [n for n in BASE_PLANTS if n not in STARTING_PLANTS and n != top and n not in out]
        rng.shuffle(rest)
        k = table.removed_at_setup
        setup_removed = tuple(rest[:k])
        deck = (top, *rest[k:], STEP3)
        market = STARTING_PLANTS
        removed = out
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
    s.market = market
    s.deck = deck
    s.removed = removed
    s.setup_removed = setup_removed
    s.resources = rules.starting_market
    s.cities = {}
    s.done = (False,) * players
    s.bought_any = False
    s.auction = None
    s.discard = None
    s.turn = 0
    s.step3_next = False
    s.powered = (0,) * players
    s.result = None
    s.sealed_last = None
    s.plant_deck = plant_deck
    s.edition = ed.number
    s.board = board_for(gmap.slug, chosen)
    return s
