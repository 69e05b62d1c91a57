"""Bots that play through the public engine API, and helpers to play and replay whole games.

Every bot has one method, ``choose(state, seat) -> action`` (a :class:`Bot`), called only when
``seat`` is awaited; the action it returns is always accepted by :func:`powergrid.apply`.

- :class:`RandomBot` picks uniformly among the action types :func:`powergrid.legal` offers, with
  random valid parameters (bids within bounds, token counts that fit storage and money together,
  affordable city sets, firable plant sets with a hybrid mix). It is for soak tests.
- :class:`HeuristicBot` plays a reasonable game, quickly: it reads the state directly (never
  ``legal``/``view``), keeps per-board tables (distances, good starting cities) and costs a few
  microseconds per decision, so whole games run at hundreds per second. It uses only what its
  seat may know (its own money, the public board), so it can stand in for an absent player.
  It values plants by cities powered less fuel cost at market prices, bids up to a limit a
  little over the plant's number, buys fuel (cheapest first) for the plants it will fire, builds
  the cheapest cities next to its network keeping money back, expands faster late, ends the game
  only when it would win, powers the best choice and discards its weakest plant.

:func:`play_game` plays a game to its end and returns the final state with the move log
``[(seat, action), ...]``; :func:`replay` rebuilds a state from a setup and such a log.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, Protocol

import powergrid
from powergrid.network import INF, Board
from powergrid.plants import PLANTS, STEP3
from powergrid.power import best_power, capacity, fits, room_for
from powergrid.state import AUCTION, BUILD, FINISHED, FIRST_GAME, RESOURCES, State
from powergrid.tables import (
    BUILD_COSTS,
    FIRST_GAME_END,
    HOUSES,
    MARKET_CAPACITY,
    MARKET_PRICES,
    PLAYER_COUNTS,
    buy_cost,
)
from powergrid.tables import (
    RESOURCES as RESOURCE_NAMES,
)
from powergrid.turns import to_act

__all__ = [
    "DEFAULT_MAX_MOVES",
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

_FUEL_INDEX = {"coal": 0, "oil": 1, "garbage": 2, "uranium": 3}


class Bot(Protocol):
    """Anything that picks a move for a seat the game is waiting on."""

    def choose(self, state: State, seat: int) -> Action: ...


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
    )
    apply = powergrid.apply
    moves: list[Move] = []
    append = moves.append
    finished = FINISHED
    while state.phase != finished:
        if len(moves) >= max_moves:
            raise GameDidNotEnd(
                f"{map} {players}p seed {seed!r}: not finished after {max_moves} moves "
                f"(round {state.round}, phase {state.phase})"
            )
        seat = to_act(state)[0]
        action = bots[seat].choose(state, seat)
        state = apply(state, seat, action)
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
        return {"type": "choose_plant", "plant": plant["number"], "bid": _random_bid(lo, hi, rng)}
    if kind == "bid":
        return {"type": "bid", "amount": _random_bid(int(option["min"]), int(option["max"]), rng)}
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
    left = tuple(p for p in plants if p != discard)
    caps = capacity(left)
    c, o, g, u = res
    drop = [0, 0, max(0, g - caps[3]), max(0, u - caps[4])]
    # Coal and oil: pure plants hold their own, hybrids the rest; drop the overflow.
    over_c = max(0, c - caps[0])
    over_o = max(0, o - caps[1])
    excess = over_c + over_o - caps[2]
    if excess > 0:
        # Choose how many of the excess are coal (at most over_c), the rest oil.
        lo = max(0, excess - over_o)
        hi = min(excess, over_c)
        dc = rng.randint(lo, hi)
        drop[0] = dc
        drop[1] = excess - dc
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


# -- the heuristic bot ---------------------------------------------------------------------------


class _BoardInfo:
    """Per-board tables the heuristic bot reuses across games."""

    __slots__ = ("board", "rows", "start_rank")

    def __init__(self, board: Board) -> None:
        self.board = board
        n = len(board.cities)
        self.rows = board.dist
        # A good first city has cheap neighbours: rank by the sum of the 4 nearest distances.
        scores: list[tuple[int, int]] = []
        for i in range(n):
            near = sorted(d for j, d in enumerate(board.dist[i]) if j != i and d < INF)[:4]
            scores.append((sum(near) + 100 * (4 - len(near)), i))
        scores.sort()
        self.start_rank = tuple(i for _, i in scores)


@cache
def _board_info(board: Board) -> _BoardInfo:
    return _BoardInfo(board)


@lru_cache(maxsize=8192)
def _network_distances(board: Board, network: tuple[str, ...]) -> tuple[int, ...]:
    """For every city of the board (by index), the cheapest connection from ``network``
    (non-empty). Networks grow by appending, so the prefix is almost always cached."""
    row = board.dist[board.index[network[-1]]]
    if len(network) == 1:
        return row
    base = _network_distances(board, network[:-1])
    return tuple(a if a < b else b for a, b in zip(base, row, strict=True))


def _scores(market: tuple[int, int, int, int]) -> dict[int, float]:
    """How good each plant is with this resource market: cities powered, less what a firing
    costs at the cheapest prices, a little for its number (bigger plants come later, last)."""
    return _scores_at(
        _cheapest(market, 0), _cheapest(market, 1), _cheapest(market, 2), _cheapest(market, 3)
    )


_PLANT_ROWS = tuple(
    (n, p.powers * 10.0 + n * 0.1, p.burns * 1.5, p.fuel) for n, p in PLANTS.items()
)


@lru_cache(maxsize=4096)
def _scores_at(coal: int, oil: int, garbage: int, uranium: int) -> dict[int, float]:
    price = {
        "coal": coal,
        "oil": oil,
        "garbage": garbage,
        "uranium": uranium,
        "hybrid": min(coal, oil),
        "ecological": 0,
        "fusion": 0,
    }
    return {n: base - burn * price[fuel] for n, base, burn, fuel in _PLANT_ROWS}


@cache
def _powers(plants: tuple[int, ...]) -> int:
    return sum(PLANTS[n].powers for n in plants)


def _fuel_price(market: tuple[int, int, int, int], fuel: str) -> int:
    """The price of the cheapest token a plant of this fuel would burn (hybrid: coal or oil)."""
    if fuel == "ecological" or fuel == "fusion":
        return 0
    if fuel == "hybrid":
        return min(_cheapest(market, 0), _cheapest(market, 1))
    return _cheapest(market, _FUEL_INDEX[fuel])


def _cheapest(market: tuple[int, int, int, int], r: int) -> int:
    m = market[r]
    if m <= 0:
        return 20
    return MARKET_PRICES[r][MARKET_CAPACITY[r] - m]


class HeuristicBot:
    """A quick, sensible player (see the module doc). Stateless between calls: any number of
    games may share one instance."""

    #: Over a plant's number, the most it bids: base + per city it powers (+ when short).
    premium_base = 1
    premium_per_city = 0
    premium_needy = 2
    #: From this round on, build towards the end whatever the position (no endless games).
    stall_round = 16
    #: Money kept back from building per step before the late game.
    build_reserve = 0
    #: Money kept back from a bid (plus two per token the plant burns).
    bid_reserve = 8
    #: Fuel bought for this many cities beyond those owned (plus the step).
    fuel_ahead = 2

    def choose(self, state: State, seat: int) -> Action:
        phase = state.phase
        if phase == AUCTION:
            return self._auction(state, seat)
        if phase == RESOURCES:
            return self._resources(state, seat)
        if phase == BUILD:
            return self._build(state, seat)
        return {"type": "power"}

    # -- phase 2 ---------------------------------------------------------------------------------

    def _gain(self, state: State, seat: int, number: int) -> float:
        """How much adding plant ``number`` improves the seat's plants (dropping the weakest
        when at the limit); <= 0 means not worth having."""
        plants = state.players[seat].plants
        scores = _scores(state.resources)
        new = scores[number]
        if len(plants) < PLAYER_COUNTS[state.n].max_plants:
            return new
        return new - min([scores[n] for n in plants])

    def _bid_limit(self, state: State, seat: int, number: int) -> int:
        player = state.players[seat]
        gain = self._gain(state, seat, number)
        if gain <= 0:
            return 0
        p = PLANTS[number]
        cap = _powers(player.plants)
        cities = len(player.cities)
        premium = self.premium_base + p.powers * self.premium_per_city
        if cap <= cities + 1:
            premium += self.premium_needy  # we need capacity badly
        limit = number + premium
        # Keep money to fuel it and to build (less as the game goes on, plants matter more then).
        reserve = 0 if state.round == 1 else self.bid_reserve + 2 * p.burns
        return min(limit, player.money - reserve)

    def _auction(self, state: State, seat: int) -> Action:
        player = state.players[seat]
        if state.discard is not None:
            return self._discard(state, seat)
        auction = state.auction
        if auction is not None:
            need = auction.bid + 1
            limit = self._bid_limit(state, seat, auction.plant)
            if auction.high != seat and need <= limit:
                # Jump towards the limit: fewer rounds of bidding, and a signal to the others.
                return {"type": "bid", "amount": need + (limit - need) // 2}
            return {"type": "pass_bid"}
        # Open an auction: the current market (all of it in step 3).
        market = state.market
        current = market if state.step == 3 else market[:4]
        money = player.money
        if state.round == 1:
            # Everyone buys one: the best plant we can afford, at its minimum.
            best = -1
            best_score = -1e9
            for n in current:
                if n != STEP3 and n <= money:
                    s = _scores(state.resources)[n]
                    if s > best_score:
                        best, best_score = n, s
            if best < 0:
                return {"type": "pass_auction"}  # cannot happen with 50 Elektro
            return {"type": "choose_plant", "plant": best, "bid": best}
        cap = _powers(player.plants)
        cities = len(player.cities)
        end = self._end_cities(state)
        wanted = cap < min(end, cities + 4) or len(player.plants) < 2
        if not wanted and state.step < 3:
            return {"type": "pass_auction"}
        best = -1
        best_gain = 0.0
        for n in current:
            if n == STEP3:
                continue
            if n > self._bid_limit(state, seat, n):
                continue
            g = self._gain(state, seat, n)
            if g > best_gain + (0 if wanted else 15):
                best, best_gain = n, g
        if best < 0:
            return {"type": "pass_auction"}
        return {"type": "choose_plant", "plant": best, "bid": best}

    def _discard(self, state: State, seat: int) -> Action:
        assert state.discard is not None
        bought = state.discard[1]
        player = state.players[seat]
        scores = _scores(state.resources)
        weakest = min(
            (n for n in player.plants if n != bought),
            key=lambda n: (scores[n], n),
        )
        action: Action = {"type": "discard_plant", "plant": weakest}
        drop = _forced_drop(player.plants, player.res, weakest)
        if drop:
            action["drop"] = drop
        return action

    def _end_cities(self, state: State) -> int:
        if state.variant == FIRST_GAME:
            return FIRST_GAME_END
        return PLAYER_COUNTS[state.n].end_cities

    # -- phase 3 ---------------------------------------------------------------------------------

    def _to_fire(self, state: State, seat: int) -> list[int]:
        """The plants to fuel for the next power phase: the best value per city first, until
        they power the cities we expect to have."""
        player = state.players[seat]
        cities = len(player.cities)
        target = min(cities + self.fuel_ahead + (state.step - 1), self._end_cities(state))
        scores = _scores(state.resources)
        plants = sorted(player.plants, key=lambda n: -scores[n])
        fire: list[int] = []
        total = 0
        for n in plants:
            if total >= target:
                break
            fire.append(n)
            total += PLANTS[n].powers
        return fire

    def _resources(self, state: State, seat: int) -> Action:
        player = state.players[seat]
        fire = self._to_fire(state, seat)
        need = [0, 0, 0, 0]
        hybrid = 0
        for n in fire:
            p = PLANTS[n]
            fuel = p.fuel
            if fuel == "hybrid":
                hybrid += p.burns
            elif fuel in _FUEL_INDEX:
                need[_FUEL_INDEX[fuel]] += p.burns
        res = player.res
        short = [max(0, need[i] - res[i]) for i in range(4)]
        # Spare coal and oil beyond the pure plants' needs feed the hybrids.
        spare = max(0, res[0] - need[0]) + max(0, res[1] - need[1])
        hybrid = max(0, hybrid - spare)
        market = state.resources
        caps = capacity(player.plants)
        money = player.money
        if state.round > 1:
            money -= 10  # keep something for building
        bought = [0, 0, 0, 0]
        held = list(res)
        for r in (0, 1, 2, 3):
            k = min(short[r], market[r] - bought[r])
            while k > 0:
                cost = buy_cost(r, market[r], bought[r] + k) - buy_cost(r, market[r], bought[r])
                if cost <= money and room_for((held[0], held[1], held[2], held[3]), caps, r) >= k:
                    money -= cost
                    bought[r] += k
                    held[r] += k
                    break
                k -= 1
        while hybrid > 0:
            # The cheaper of coal and oil, one at a time.
            best_r = -1
            best_p = 1 << 30
            for r in (0, 1):
                if market[r] - bought[r] > 0:
                    price = MARKET_PRICES[r][MARKET_CAPACITY[r] - market[r] + bought[r]]
                    if (
                        price < best_p
                        and room_for((held[0], held[1], held[2], held[3]), caps, r) > 0
                    ):
                        best_r, best_p = r, price
            if best_r < 0 or best_p > money:
                break
            money -= best_p
            bought[best_r] += 1
            held[best_r] += 1
            hybrid -= 1
        action: Action = {"type": "buy_resources"}
        for r in (0, 1, 2, 3):
            if bought[r]:
                action[RESOURCE_NAMES[r]] = bought[r]
        return action

    # -- phase 4 ---------------------------------------------------------------------------------

    def _first_city(self, state: State, avail: list[int]) -> int:
        """Where to start: a city with cheap neighbours, away from the other players."""
        board = state.board
        rows = board.dist
        index = board.index
        others = [index[c] for c in state.cities]
        free = set(avail)
        best_i = -1
        best_score = INF
        for rank, i in enumerate(_board_info(board).start_rank):
            if i not in free:
                continue
            row = rows[i]
            near = min((row[j] for j in others), default=30)
            score = rank * 3 - min(near, 30)
            if score < best_score:
                best_i, best_score = i, score
            if rank > 12:
                break
        return best_i if best_i >= 0 else avail[0]

    def _build_plan(self, state: State, seat: int) -> tuple[int, int]:
        """How many cities to add at most, and the money to spend on them."""
        players = state.players
        player = players[seat]
        have = len(player.cities)
        cap = _powers(player.plants)
        end = self._end_cities(state)
        leader = max(len(p.cities) for p in players)
        late = state.step == 3 or leader >= end - 4
        if late:
            want = cap - have + 2
        else:
            want = cap - have + 1
            if state.round == 1:
                want = max(want, 1)
        budget = player.money
        if not late:
            budget -= self.build_reserve * state.step
        elif have + want >= end or leader >= end:
            # The game can end this round: the winner is who powers most. End it when we
            # would win; otherwise build no more than our fuel can power.
            powerable = best_power(player.plants, player.res, HOUSES)[1]
            # Rivals who built already this round keep their cities; the others may add more.
            order = state.order
            built = {order[len(order) - 1 - k] for k in range(state.turn)}
            rivals = max(
                best_power(q.plants, q.res, len(q.cities) if i in built else HOUSES)[1]
                for i, q in enumerate(players)
                if i != seat
            )
            if min(powerable, end) >= rivals:
                want = max(want, end - have)
            else:
                want = min(want, powerable - have)
        if state.round >= self.stall_round:
            want = max(want, end - have)  # whatever happens, games end
        if state.variant == FIRST_GAME:
            want = min(want, FIRST_GAME_END - have)
        return want, budget

    def _build(self, state: State, seat: int) -> Action:
        mine = state.players[seat].cities
        want, budget = self._build_plan(state, seat)
        if want <= 0 or budget < 10:
            return {"type": "build", "cities": []}
        board = state.board
        names = board.cities
        rows = board.dist
        occupied = state.cities
        limit = state.step
        # The cities we could add, with the price of their next free space.
        avail: list[int] = []
        slot: dict[int, int] = {}
        for i, c in enumerate(names):
            occ = occupied.get(c)
            if occ is None:
                avail.append(i)
                slot[i] = 10
            elif len(occ) < limit and seat not in occ:
                avail.append(i)
                slot[i] = BUILD_COSTS[len(occ)]
        chosen: list[str] = []
        if not avail:
            return {"type": "build", "cities": chosen}
        spent = 0
        if mine:
            net = _network_distances(board, mine)
            best = {i: net[i] for i in avail}
        else:
            first = self._first_city(state, avail)
            if slot[first] > budget:
                return {"type": "build", "cities": chosen}
            spent = slot[first]
            chosen.append(names[first])
            avail.remove(first)
            row = rows[first]
            best = {i: row[i] for i in avail}
        while len(chosen) < want and avail:
            pick = -1
            pick_cost = 1 << 30
            for i in avail:
                cost = best[i] + slot[i]
                if cost < pick_cost:
                    pick, pick_cost = i, cost
            if spent + pick_cost > budget:
                break
            spent += pick_cost
            chosen.append(names[pick])
            avail.remove(pick)
            row = rows[pick]
            for i in avail:
                if row[i] < best[i]:
                    best[i] = row[i]
        return {"type": "build", "cities": chosen}


def _forced_drop(
    plants: tuple[int, ...], res: tuple[int, int, int, int], discard: int
) -> dict[str, int]:
    """The tokens that cannot stay after discarding a plant (oil before coal when it's a choice)."""
    left = tuple(p for p in plants if p != discard)
    caps = capacity(left)
    if fits(res, caps):
        return {}
    c, o, g, u = res
    drop = [0, 0, max(0, g - caps[3]), max(0, u - caps[4])]
    over_c = max(0, c - caps[0])
    over_o = max(0, o - caps[1])
    excess = over_c + over_o - caps[2]
    if excess > 0:
        do = min(excess, over_o)
        drop[1] = do
        drop[0] = excess - do
    return {RESOURCE_NAMES[i]: n for i, n in enumerate(drop) if n}
