"""The heuristic bot: a reasonable game, quickly (see :mod:`powergrid.bots` for the other bots).

It reads the state directly (never ``legal``/``view``), keeps per-board and per-market tables
(distances from a network, good starting cities, plant scores at the market's prices) and costs a
few microseconds per decision, so whole games run at hundreds per second; ``python -m powergrid
bench`` counts them. It uses only what its seat may know (its own money, the public board), so it
can stand in for an absent player.

It values plants by cities powered less fuel cost at market prices, bids up to a limit a little
over the plant's number, buys fuel (cheapest first) for the plants it will fire, builds the
cheapest cities next to its network keeping money back, expands faster late, ends the game only
when it would win, powers the best choice and discards its weakest plant.

Each decision is worked out once per call: the plant scores at the current market, the seat's
weakest plant and capacity are computed before the loops over the market, not per plant, and
the build loop keeps one list of candidate costs. Its choices are those of the straightforward
version it replaced (same seeds, same games).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from powergrid.network import INF, Board, network_distances
from powergrid.plants import NUMBER, PLANTS, STEP3
from powergrid.power import best_power, capacity, overflow, room_for
from powergrid.state import AUCTION, BUILD, FIRST_GAME, RESOURCES, Player, State
from powergrid.tables import (
    BUILD_COSTS,
    FIRST_GAME_END,
    MARKET_CAPACITY,
    MARKET_PRICES,
    PLAYER_COUNTS,
    buy_cost,
)
from powergrid.tables import (
    RESOURCES as RESOURCE_NAMES,
)

Action = dict[str, Any]

_FUEL_INDEX = {"coal": 0, "oil": 1, "garbage": 2, "uranium": 3}
#: "As many cities as the plants and fuel can power": more than any plants can.
_ANY_CITIES = 99

#: Per plant number: (index of the fuel it alone burns (0-3), 4 for hybrid, -1 for none;
#: tokens it burns). What buying fuel for a plant needs.
_BURNS = {
    n: (_FUEL_INDEX.get(p.fuel, 4 if p.fuel == "hybrid" else -1), p.burns)
    for n, p in PLANTS.items()
}


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


@lru_cache(maxsize=4096)
def _scores(market: tuple[int, int, int, int]) -> dict[int, float]:
    """How good each plant is with this resource market: cities powered, less what a firing
    costs at the cheapest prices, a little for its number (bigger plants come later, last).
    Cached by the market itself: it changes a few times a round, the bot asks every move."""
    return _scores_at(
        _cheapest(market, 0), _cheapest(market, 1), _cheapest(market, 2), _cheapest(market, 3)
    )


_PLANT_ROWS = tuple(
    (n, p.powers * 10.0 + p.number * 0.1, p.burns * 1.5, p.fuel) for n, p in PLANTS.items()
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


def _cheapest(market: tuple[int, int, int, int], r: int) -> int:
    m = market[r]
    if m <= 0:
        return 20
    return MARKET_PRICES[r][MARKET_CAPACITY[r] - m]


def _weakest_score(state: State, plants: tuple[int, ...], scores: dict[int, float]) -> float | None:
    """The score of the plant a new one would replace (the weakest), or None while the seat is
    below the plant limit (a new plant replaces nothing)."""
    if len(plants) < PLAYER_COUNTS[state.n].max_plants:
        return None
    return min([scores[n] for n in plants])


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

    def _limit(self, state: State, player: Player, number: int, gain: float) -> int:
        """The most the seat bids for plant ``number`` (an id) that improves its plants by
        ``gain`` (0 when it does not: not worth having)."""
        if gain <= 0:
            return 0
        p = PLANTS[number]
        premium = self.premium_base + p.powers * self.premium_per_city
        if _powers(player.plants) <= len(player.cities) + 1:
            premium += self.premium_needy  # we need capacity badly
        limit = p.number + premium
        # Keep money to fuel it and to build (less as the game goes on, plants matter more then).
        reserve = 0 if state.round == 1 else self.bid_reserve + 2 * p.burns
        return min(limit, player.money - reserve)

    def bid_limit(self, state: State, seat: int, plant: int) -> int:
        """The most this bot would pay for ``plant`` now: its valuation, what a player who leaves
        a proxy (maximum) bid would write down (``powergrid.plans.ProxyBid``)."""
        player = state.players[seat]
        scores = _scores(state.resources)
        weakest = _weakest_score(state, player.plants, scores)
        gain = scores[plant] if weakest is None else scores[plant] - weakest
        return self._limit(state, player, plant, gain)

    def open_ranking(
        self, state: State, seat: int, more: Iterable[int] = ()
    ) -> list[tuple[int, int]]:
        """The plants this bot would open, best first, each with its limit: ``(plant, max)``:
        what a round sheet suggests (``powergrid.sheet``). Every plant of the market is ranked
        (a future plant may slide into the current market), and the plants ``more`` (those that
        may be drawn into it before the seat's turn); empty when it would pass.

        The order is ``choose``'s own: its first is what ``choose`` opens with all of them
        offered, the next what it opens once the first is gone, and so on (its scan of the
        market, plants in number order, ties to the lower; a plant it does not need must beat
        the one before by a margin). So the first of the list that is offered is ``choose``'s
        opening in the positions that come up in a round (plants leave the market one by
        one)."""
        player = state.players[seat]
        scores = _scores(state.resources)
        cands: list[tuple[int, float, int]] = []  # (plant, gain, limit), in plant order
        plants = sorted({*state.market, *more} - {STEP3}, key=lambda n: (NUMBER[n], n))
        margin = 0.0
        if state.round == 1:
            for n in plants:
                if NUMBER[n] <= player.money:
                    limit = max(NUMBER[n], self._limit(state, player, n, scores[n]))
                    cands.append((n, scores[n], limit))
            floor = -1e9  # everyone buys one in round 1: the best affordable
        else:
            held = player.plants
            wanted = self.wants_capacity(state, seat)
            if not wanted and state.step < 3:
                return []
            weakest = _weakest_score(state, held, scores)
            margin = 0.0 if wanted else 15.0
            floor = 0.0
            for n in plants:
                g = scores[n] if weakest is None else scores[n] - weakest
                limit = self._limit(state, player, n, g)
                if NUMBER[n] <= limit:
                    cands.append((n, g, limit))
        out: list[tuple[int, int]] = []
        while cands:
            pick = -1
            best = floor
            for i, (_n, g, _limit) in enumerate(cands):
                if g > best + margin:
                    pick, best = i, g
            if pick < 0:
                break
            n, _g, limit = cands.pop(pick)
            out.append((n, limit))
        return out

    def wants_capacity(self, state: State, seat: int) -> bool:
        """Whether the seat needs a plant (after round 1): its plants power fewer cities than
        it will want soon, or it has fewer than two. Without the need it opens an auction only
        in step 3, and only for a plant much better than its weakest (a margin)."""
        player = state.players[seat]
        plants = player.plants
        return _powers(plants) < min(self._end_cities(state), len(player.cities) + 4) or (
            len(plants) < 2
        )

    def auction_limit(self, state: State, seat: int) -> int:
        """The most this bot would give for the plant of the auction under way (one is)."""
        auction = state.auction
        assert auction is not None
        player = state.players[seat]
        scores = _scores(state.resources)
        weakest = _weakest_score(state, player.plants, scores)
        gain = scores[auction.plant] if weakest is None else scores[auction.plant] - weakest
        return self._limit(state, player, auction.plant, gain)

    def _auction(self, state: State, seat: int) -> Action:
        player = state.players[seat]
        if state.discard is not None:
            return self._discard(state, seat)
        scores = _scores(state.resources)
        auction = state.auction
        if auction is not None:
            need = auction.bid + 1
            if auction.high != seat:
                limit = self.auction_limit(state, seat)
                if auction.sealed is not None:  # one sealed bid: our limit, or nothing
                    return (
                        {"type": "seal_bid", "amount": limit}
                        if need <= limit
                        else {"type": "pass_bid"}
                    )
                if need <= limit:
                    # Jump towards the limit: fewer rounds of bidding, and a signal to the others.
                    return {"type": "bid", "amount": need + (limit - need) // 2}
            return {"type": "pass_bid"}
        # Open an auction: the current market (all of it in step 3).
        market = state.market
        current = market if state.step == 3 else market[:4]
        if state.round == 1:
            # Everyone buys one: the best plant we can afford, at its minimum.
            money = player.money
            best = -1
            best_score = -1e9
            for n in current:
                if n != STEP3 and NUMBER[n] <= money:
                    s = scores[n]
                    if s > best_score:
                        best, best_score = n, s
            if best < 0:
                return {"type": "pass_auction"}  # cannot happen with 50 Elektro
            return {"type": "choose_plant", "plant": best, "bid": NUMBER[best]}
        plants = player.plants
        wanted = self.wants_capacity(state, seat)
        if not wanted and state.step < 3:
            return {"type": "pass_auction"}
        weakest = _weakest_score(state, plants, scores)
        margin = 0 if wanted else 15
        best = -1
        best_gain = 0.0
        for n in current:
            if n == STEP3:
                continue
            g = scores[n] if weakest is None else scores[n] - weakest
            if NUMBER[n] > self._limit(state, player, n, g):
                continue
            if g > best_gain + margin:
                best, best_gain = n, g
        if best < 0:
            return {"type": "pass_auction"}
        return {"type": "choose_plant", "plant": best, "bid": NUMBER[best]}

    def weakest_plant(self, state: State, seat: int) -> int:
        """The plant this bot gives up when it has one too many (before the new one)."""
        scores = _scores(state.resources)
        return min(state.players[seat].plants, key=lambda n: (scores[n], n))

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
        # Best first; a reverse sort keeps ties in plant order, as sorting by -score would.
        plants = sorted(player.plants, key=scores.__getitem__, reverse=True)
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
        # Tokens the plants to fire burn: coal, oil, garbage, uranium, hybrid (coal or oil).
        need = [0, 0, 0, 0, 0]
        for n in self._to_fire(state, seat):
            fuel, burns = _BURNS[n]
            if fuel >= 0:
                need[fuel] += burns
        res = player.res
        short = [need[r] - res[r] if need[r] > res[r] else 0 for r in (0, 1, 2, 3)]
        # Spare coal and oil beyond the pure plants' needs feed the hybrids.
        spare = max(0, res[0] - need[0]) + max(0, res[1] - need[1])
        hybrid = max(0, need[4] - spare)
        market = state.resources
        caps = capacity(player.plants)
        money = player.money
        if state.round > 1:
            money -= 10  # keep something for building
        bought = [0, 0, 0, 0]
        held = list(res)
        for r in (0, 1, 2, 3):
            k = short[r]
            if not k:
                continue
            if k > market[r]:
                k = market[r]
            while k > 0:
                cost = buy_cost(r, market[r], k)
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
        leader = state.max_cities()
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
            powerable = best_power(player.plants, player.res, _ANY_CITIES)[1]
            # Rivals who built already this round keep their cities; the others may add more.
            order = state.order
            built = {order[len(order) - 1 - k] for k in range(state.turn)}
            rivals = max(
                best_power(q.plants, q.res, len(q.cities) if i in built else _ANY_CITIES)[1]
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
        want, budget = self._build_plan(state, seat)
        if want <= 0 or budget < 10:
            return {"type": "build", "cities": []}
        board = state.board
        names = board.cities
        rows = board.dist
        occupied = state.cities
        limit = state.step
        chosen: list[str] = []
        spent = 0
        mine = state.players[seat].cities
        if mine:
            near = network_distances(board, mine)  # shared with the engine's build quote
            # Only cities within reach can be bought (see below): the rest are never looked at.
            reach = budget - 10
            cand = [i for i, d in enumerate(near) if d <= reach]
        else:
            # The first city: chosen among every city we could add.
            index = board.index
            free = [10] * len(names)
            for c, occ in occupied.items():
                k = len(occ)
                free[index[c]] = 0 if k >= limit or seat in occ else BUILD_COSTS[k]
            avail = [i for i, price in enumerate(free) if price]
            if not avail:
                return {"type": "build", "cities": chosen}
            first = self._first_city(state, avail)
            if free[first] > budget:
                return {"type": "build", "cities": chosen}
            spent = free[first]
            chosen.append(names[first])
            near = rows[first]
            reach = budget - spent - 10
            cand = [i for i in avail if i != first and near[i] <= reach]
        # Greedy: the city cheapest to add now (connection from the network as it stands plus
        # its next space), first in city order on a tie, until the wish or the money runs out.
        # A city it buys is at most (money left - 10) from the network it started from: each
        # purchase costs at least 10 for its space, and distances obey the triangle inequality
        # along the chain of purchases. So the candidates are the cities within that reach; one
        # out of reach is never affordable, so leaving it out changes no purchase and no stop.
        avail = []
        price = []
        costs = []
        for i in cand:
            there = occupied.get(names[i])
            if there is None:
                p = 10
            elif len(there) < limit and seat not in there:
                p = BUILD_COSTS[len(there)]
            else:
                continue
            avail.append(i)
            price.append(p)
            costs.append(near[i] + p)
        while len(chosen) < want and costs:
            pick_cost = min(costs)
            if spent + pick_cost > budget:
                break
            j = costs.index(pick_cost)
            pick = avail.pop(j)
            del price[j]
            del costs[j]
            spent += pick_cost
            chosen.append(names[pick])
            row = rows[pick]
            costs = [
                c if c <= row[i] + p else row[i] + p
                for c, i, p in zip(costs, avail, price, strict=True)
            ]
        return {"type": "build", "cities": chosen}


def _forced_drop(
    plants: tuple[int, ...], res: tuple[int, int, int, int], discard: int
) -> dict[str, int]:
    """The tokens that cannot stay after discarding a plant (oil before coal when it's a choice)."""
    ov = overflow(tuple(p for p in plants if p != discard), res)
    drop = ov.drop(ov.min_coal)
    return {RESOURCE_NAMES[i]: n for i, n in enumerate(drop) if n}
