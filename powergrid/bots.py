"""Bots that play through the public engine API, and helpers to play and replay whole games.

Every bot has one method, ``choose(state, seat) -> action`` (a :class:`Bot`), called only when
``seat`` is awaited; the action it returns is always accepted by :func:`powergrid.apply`.

- :class:`RandomBot` picks uniformly among the action types :func:`powergrid.legal` offers, with
  random valid parameters (bids within bounds, token counts that fit storage and money together,
  affordable city sets, firable plant sets with a hybrid mix). It is for soak tests.
- :class:`HeuristicBot` (in :mod:`powergrid.heuristic`, importable from here) plays a
  reasonable game, quickly, reading the state directly; whole games run at hundreds per second.

:func:`play_game` plays a game to its end and returns the final state with the move log
``[(seat, action), ...]``; :func:`replay` rebuilds a state from a setup and such a log. A bot that
keeps accounts (:class:`AccountsBot`, the expert level) is handed each seat's money as the public
move log tells it, which :func:`play_game` keeps as the server does from its log.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, cast

import powergrid
from powergrid.describe import keep_accounts, move_entries
from powergrid.heuristic import HeuristicBot
from powergrid.plants import PLANTS
from powergrid.power import capacity, overflow, room_for
from powergrid.state import FINISHED, FIRST_GAME, State
from powergrid.tables import BUILD_COSTS, FIRST_GAME_END, STARTING_MONEY, buy_cost
from powergrid.tables import RESOURCES as RESOURCE_NAMES
from powergrid.turns import first_to_act, to_act
from powergrid.view import view

__all__ = [
    "DEFAULT_MAX_MOVES",
    "AccountsBot",
    "Bot",
    "GameDidNotEnd",
    "HeuristicBot",
    "RandomBot",
    "game_round",
    "is_finished",
    "make_bots",
    "play_game",
    "random_action",
    "replay",
    "to_act",
    "winner_cities",
    "winners",
]

Action = dict[str, Any]
Move = tuple[int, Action]

#: A game that has not ended after this many moves counts as stuck.
DEFAULT_MAX_MOVES = 5000


class Bot(Protocol):
    """Anything that picks a move for a seat the game is waiting on."""

    def choose(self, state: State, seat: int) -> Action: ...


class AccountsBot(Bot, Protocol):
    """A bot that reads, beside its view, each seat's money as the public move log tells it
    (``powergrid.describe.public_money``): ``keeps_accounts`` says whether it wants them."""

    @property
    def keeps_accounts(self) -> bool: ...

    def choose(self, state: State, seat: int, accounts: Sequence[int] | None = None) -> Action: ...


def _keeps_accounts(bot: Bot) -> bool:
    return bool(getattr(bot, "keeps_accounts", False))


class GameDidNotEnd(RuntimeError):
    """A game went past its move cap without finishing."""


# -- game facts ------------------------------------------------------------------------------------


def is_finished(state: State) -> bool:
    return state.phase == FINISHED


def game_round(state: State) -> int:
    return state.round


def winner_cities(state: State) -> int:
    """Cities connected by the winner of a finished game (rank 1; the first such seat)."""
    result = state.result
    if result is None:
        return max(len(p.cities) for p in state.players)
    for seat, row in enumerate(result):
        if row[3] == 1:
            return len(state.players[seat].cities)
    return max(len(p.cities) for p in state.players)


def winners(state: State) -> list[int]:
    """Seats ranked first in a finished game."""
    result = state.result
    if result is None:
        return []
    return [seat for seat, row in enumerate(result) if row[3] == 1]


# -- playing and replaying -----------------------------------------------------------------------


def make_bots(kind: str, players: int, seed: int) -> list[Bot]:
    """Bots for every seat: ``heuristic``, ``random`` or ``mixed`` (seats drawn from the seed)."""
    rng = random.Random(f"bots:{kind}:{seed}")
    out: list[Bot] = []
    for seat in range(players):
        k = kind
        if kind == "mixed":
            k = rng.choice(("heuristic", "random"))
        if k == "heuristic":
            out.append(HeuristicBot())
        elif k == "random":
            out.append(RandomBot(rng.randrange(1 << 30) + seat))
        else:
            raise ValueError(f"unknown bot kind {kind!r}")
    return out


def play_game(
    map: str = "germany",
    players: int = 4,
    seed: int | str = 0,
    bots: Sequence[Bot] | None = None,
    *,
    variant: str = "standard",
    areas: Iterable[str] | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    plant_deck: str = "base",
    edition: int | None = None,
) -> tuple[State, list[Move]]:
    """Play one game to its end; returns the final state and the move log ``[(seat, action)]``.

    In phase 5 the awaited seats move one at a time in player order. Raises
    :class:`GameDidNotEnd` past ``max_moves``; anything the engine raises propagates."""
    if bots is None:
        bots = [HeuristicBot() for _ in range(players)]
    if len(bots) != players:
        raise ValueError("one bot per seat")
    state = powergrid.new_game(
        map=map,
        players=players,
        seed=seed,
        areas=None if areas is None else list(areas),
        variant=variant,
        plant_deck=plant_deck,
        **({} if edition is None else {"edition": edition}),
    )
    apply = powergrid.apply
    moves: list[Move] = []
    append = moves.append
    finished = FINISHED
    # The accounts of the public log, kept only when a bot reads them (a view before and after
    # each move costs what a move does).
    keeping = [_keeps_accounts(b) for b in bots]
    accounts = [STARTING_MONEY] * players if any(keeping) else None
    while state.phase != finished:
        if len(moves) >= max_moves:
            raise GameDidNotEnd(
                f"{map} {players}p seed {seed!r}: not finished after {max_moves} moves "
                f"(round {state.round}, phase {state.phase})"
            )
        seat = first_to_act(state)
        bot = bots[seat]
        if accounts is not None and keeping[seat]:
            action = cast(AccountsBot, bot).choose(state, seat, tuple(accounts))
        else:
            action = bot.choose(state, seat)
        after = apply(state, seat, action)
        if accounts is not None:
            for entry in move_entries(action, seat, view(state), view(after)):
                keep_accounts(accounts, entry)
        state = after
        append((seat, action))
    return state, moves


def replay(setup: Mapping[str, Any], moves: Iterable[Sequence[Any]]) -> State:
    """The state after ``moves`` (``(seat, action)`` pairs) from a new game made by ``setup``
    (the keyword arguments of :func:`powergrid.new_game`)."""
    state = powergrid.new_game(**setup)
    apply = powergrid.apply
    for seat, action in moves:
        state = apply(state, seat, action)
    return state


# -- the random bot ------------------------------------------------------------------------------


class RandomBot:
    """Uniform over the legal action types, with uniformly random valid parameters."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        options = powergrid.legal(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has nothing to do")
        return random_action(state, seat, self.rng.choice(options), self.rng)


def random_action(state: State, seat: int, option: Mapping[str, Any], rng: random.Random) -> Action:
    """A random valid action of the type of one ``legal`` entry, within its bounds."""
    kind = option["type"]
    player = state.players[seat]
    if kind == "choose_plant":
        plant = rng.choice(option["plants"])
        lo = int(plant["min_bid"])
        hi = int(option["max_bid"])
        plant_id = plant.get("id", plant["number"])
        return {"type": "choose_plant", "plant": plant_id, "bid": _random_bid(lo, hi, rng)}
    if kind in ("bid", "seal_bid"):
        return {"type": kind, "amount": _random_bid(int(option["min"]), int(option["max"]), rng)}
    if kind in ("pass_auction", "pass_bid"):
        return {"type": kind}
    if kind == "discard_plant":
        plant = rng.choice(option["plants"])
        action: Action = {"type": "discard_plant", "plant": plant}
        drop = random_drop(player.plants, player.res, plant, rng)
        if drop:
            action["drop"] = drop
        return action
    if kind == "buy_resources":
        return random_buy(state, seat, option, rng)
    if kind == "build":
        return random_build(state, seat, option, rng)
    if kind == "power":
        return random_power(player.plants, player.res, rng)
    raise ValueError(f"unknown legal entry {kind!r}")


def _random_bid(lo: int, hi: int, rng: random.Random) -> int:
    if hi <= lo:
        return lo
    r = rng.random()
    if r < 0.6:  # mostly near the minimum, so random games still progress
        return lo + min(hi - lo, rng.randrange(4))
    return rng.randint(lo, hi)


def random_drop(
    plants: tuple[int, ...], res: tuple[int, int, int, int], discard: int, rng: random.Random
) -> dict[str, int]:
    """Tokens to drop so that ``res`` fits the plants left after discarding ``discard``, chosen at
    random among the minimal choices (only coal versus oil can be a choice, for hybrids)."""
    ov = overflow(tuple(p for p in plants if p != discard), res)
    # Only the coal/oil mix can be a choice (hybrids hold either); no draw when nothing is over.
    coal = rng.randint(ov.min_coal, ov.max_coal) if ov.excess > 0 else 0
    drop = ov.drop(coal)
    return {RESOURCE_NAMES[i]: n for i, n in enumerate(drop) if n}


def random_buy(state: State, seat: int, option: Mapping[str, Any], rng: random.Random) -> Action:
    player = state.players[seat]
    caps = capacity(player.plants)
    held = list(player.res)
    money = player.money
    market = state.resources
    bought = [0, 0, 0, 0]
    order = [0, 1, 2, 3]
    rng.shuffle(order)
    maxes = option.get("max", {})
    for r in order:
        top = int(maxes.get(RESOURCE_NAMES[r], 0))
        if top <= 0 or rng.random() < 0.3:
            continue
        # What still fits and is affordable together with what was picked already.
        room = room_for((held[0], held[1], held[2], held[3]), caps, r)
        top = min(top, room, market[r])
        while top > 0 and buy_cost(r, market[r], top) > money:
            top -= 1
        if top <= 0:
            continue
        k = rng.randint(0, top)
        money -= buy_cost(r, market[r], k)
        held[r] += k
        bought[r] = k
    action: Action = {"type": "buy_resources"}
    for r, k in enumerate(bought):
        if k:
            action[RESOURCE_NAMES[r]] = k
    return action


def random_build(state: State, seat: int, option: Mapping[str, Any], rng: random.Random) -> Action:
    candidates = list(option.get("cities", {}))
    if not candidates or rng.random() < 0.25:
        return {"type": "build", "cities": []}
    player = state.players[seat]
    limit = _build_limit(state, seat)
    want = rng.randint(1, max(1, min(len(candidates), limit, 4)))
    rng.shuffle(candidates)
    chosen: list[str] = []
    for city in candidates:
        if len(chosen) >= want:
            break
        trial = [*chosen, city]
        if build_cost(state, seat, trial) <= player.money:
            chosen = trial
    return {"type": "build", "cities": chosen}


def _build_limit(state: State, seat: int) -> int:
    if state.variant == FIRST_GAME:
        return max(0, FIRST_GAME_END - len(state.players[seat].cities))
    return 99


def build_cost(state: State, seat: int, cities: Sequence[str]) -> int:
    """What building ``cities`` (valid, free for the seat) costs at the cheapest order."""
    occupied = state.cities
    total = 0
    for c in cities:
        total += BUILD_COSTS[len(occupied.get(c, ()))]
    return total + state.board.connection_cost(state.players[seat].cities, cities)


def random_power(
    plants: tuple[int, ...], res: tuple[int, int, int, int], rng: random.Random
) -> Action:
    """A random set of plants that can fire together, with a random hybrid mix."""
    if rng.random() < 0.3:
        return {"type": "power"}  # the best choice
    order = list(plants)
    rng.shuffle(order)
    c, o, g, u = res
    fired: list[int] = []
    hybrid: dict[str, dict[str, int]] = {}
    for number in order:
        if rng.random() < 0.3:
            continue
        p = PLANTS[number]
        b = p.burns
        if p.fuel == "coal" and c >= b:
            c -= b
        elif p.fuel == "oil" and o >= b:
            o -= b
        elif p.fuel == "garbage" and g >= b:
            g -= b
        elif p.fuel == "uranium" and u >= b:
            u -= b
        elif p.fuel == "hybrid" and c + o >= b:
            hc = rng.randint(max(0, b - o), min(b, c))
            c -= hc
            o -= b - hc
            hybrid[str(number)] = {"coal": hc, "oil": b - hc}
        elif p.fuel in ("ecological", "fusion"):
            pass
        else:
            continue
        fired.append(number)
    action: Action = {"type": "power", "plants": sorted(fired)}
    if hybrid:
        action["hybrid"] = hybrid
    return action
