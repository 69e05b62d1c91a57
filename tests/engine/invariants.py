"""Invariants every reachable game state satisfies, checked by the soak tests after every action.

``check_cheap`` reads the state directly (microseconds); ``check_full`` adds the expensive ones:
every action type ``legal`` offers is accepted by ``apply`` with a randomly sampled valid
parameterisation, seats not awaited are offered nothing, and the views are JSON-clean and hide
other players' money.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import powergrid
from powergrid import bots
from powergrid.actions import ACTIONS
from powergrid.errors import CODES
from powergrid.plants import BASE_PLANTS, NEW_PLANTS, NUMBER, PLANTS, RANK, STEP3
from powergrid.power import best_power, capacity, fits
from powergrid.state import AUCTION, BUREAUCRACY, FINISHED, MIXED_DECK, State
from powergrid.tables import (
    MARKET_CAPACITY,
    PLAYER_COUNTS,
    RESUPPLY,
    TOTAL_TOKENS,
    buy_cost,
    income,
)
from powergrid.tables import RESOURCES as RESOURCE_NAMES

#: The whole deck of each plant deck: its plants and the Step 3 card (base: 42 plants; new:
#: 42; mixed: both, the base 17 and 18 among the plants removed).
WHOLE_DECKS = {
    "base": Counter([*BASE_PLANTS, STEP3]),
    "new": Counter([*NEW_PLANTS, STEP3]),
    "mixed": Counter([*BASE_PLANTS, *NEW_PLANTS, STEP3]),
}
assert sum(WHOLE_DECKS["base"].values()) == 43
WHOLE_DECK = WHOLE_DECKS["base"]


class InvariantError(AssertionError):
    pass


def _fail(state: State, what: str) -> None:
    raise InvariantError(f"{what}  [{state!r}]")


def check_cheap(state: State) -> None:
    """The state-only invariants (tokens, money, plants, cities, deck, market)."""
    n = state.n
    players = state.players
    if len(players) != n:
        _fail(state, "wrong number of players")

    # Tokens: market + players + supply = 24/24/24/12, each part within its bounds.
    held = [0, 0, 0, 0]
    for p in players:
        for r in range(4):
            if p.res[r] < 0:
                _fail(state, f"negative tokens {p.res}")
            held[r] += p.res[r]
        if not fits(p.res, capacity(p.plants)):
            _fail(state, f"tokens {p.res} do not fit plants {p.plants}")
    for r in range(4):
        m = state.resources[r]
        if not 0 <= m <= MARKET_CAPACITY[r]:
            _fail(state, f"market count {state.resources}")
        supply = TOTAL_TOKENS[r] - m - held[r]
        if not 0 <= supply <= TOTAL_TOKENS[r]:
            _fail(state, f"resource {r}: market {m} + held {held[r]} exceeds {TOTAL_TOKENS[r]}")
    if state.supply() != tuple(TOTAL_TOKENS[r] - state.resources[r] - held[r] for r in range(4)):
        _fail(state, "supply() disagrees with the token count")

    # Money and the plant limit.
    limit = PLAYER_COUNTS[n].max_plants
    for seat, p in enumerate(players):
        if p.money < 0:
            _fail(state, f"seat {seat} has negative money {p.money}")
        over_ok = state.discard is not None and state.discard[0] == seat
        if len(p.plants) > limit + (1 if over_ok else 0):
            _fail(state, f"seat {seat} holds {len(p.plants)} plants (limit {limit})")
        if list(p.plants) != sorted(set(p.plants), key=RANK.__getitem__):
            _fail(state, f"seat {seat} plants not sorted/unique: {p.plants}")
    if state.discard is not None:
        seat, plant = state.discard
        if len(players[seat].plants) != limit + 1 or plant not in players[seat].plants:
            _fail(state, f"discard pending {state.discard} but plants {players[seat].plants}")

    # Cities: within the step's occupancy, nobody twice, consistent with the players' lists.
    in_play = state.board.index
    limit_per_city = 1 if state.first_game else state.step
    pairs = set()
    for city, seats in state.cities.items():
        if city not in in_play:
            _fail(state, f"building in {city}, not in play")
        if len(seats) > limit_per_city:
            _fail(state, f"{city} holds {seats} in step {state.step}")
        if len(set(seats)) != len(seats):
            _fail(state, f"a player twice in {city}: {seats}")
        pairs.update((city, s) for s in seats)
    own = {(c, seat) for seat, p in enumerate(players) for c in p.cities}
    if own != pairs or sum(len(p.cities) for p in players) != len(pairs):
        _fail(state, "players' cities disagree with the board's occupancy")
    if state.first_game and any(len(p.cities) > 7 for p in players):
        _fail(state, "first game: more than 7 cities")

    # Plants: deck + market + owned + removed (+ removed at setup) = the whole deck, once each.
    everything = Counter(state.deck)
    everything.update(state.market)
    everything.update(state.removed)
    everything.update(state.setup_removed)
    for p in players:
        everything.update(p.plants)
    whole = WHOLE_DECKS[state.plant_deck]
    if everything != whole:
        diff = (everything - whole) + (whole - everything)
        _fail(state, f"plants do not add up to the deck: {dict(diff)}")
    if state.plant_deck == MIXED_DECK:
        # Pairs go out face up; of each number only one card is ever in play.
        if state.setup_removed:
            _fail(state, "mixed deck: plants removed face down")
        in_play = [NUMBER[x] for x in state.market] + [NUMBER[x] for p in players for x in p.plants]
        if len(in_play) != len(set(in_play)):
            _fail(state, f"mixed deck: two plants of one number in play: {sorted(in_play)}")
    elif len(state.setup_removed) != PLAYER_COUNTS[n].removed_at_setup:
        _fail(state, "wrong number of plants removed at setup")

    # The plant market: sorted, 8 plants (6 in step 3) unless the deck ran out.
    market = state.market
    if list(market) != sorted(market, key=RANK.__getitem__):
        _fail(state, f"plant market not sorted: {market}")
    if STEP3 in market and (state.phase != AUCTION or market[-1] != STEP3):
        _fail(state, f"Step 3 card in the market outside phase 2: {market}")
    size = 6 if (state.step == 3 or state.step3_next) else 8
    if state.deck:
        if len(market) != size:
            _fail(state, f"plant market has {len(market)} plants, expected {size}: {market}")
    elif len(market) > size:
        _fail(state, f"plant market has {len(market)} plants, more than {size}")
    if state.first_game and state.step != 1:
        _fail(state, "first game left step 1")

    # Who acts.
    acting = bots.to_act(state)
    if state.phase == FINISHED:
        if acting or state.result is None:
            _fail(state, "finished game still awaiting moves or without a result")
    else:
        if not acting:
            _fail(state, "unfinished game awaits nobody")
        sealed = state.auction is not None and state.auction.sealed is not None
        if state.phase != BUREAUCRACY and not sealed and len(acting) != 1:
            _fail(state, f"several seats to act outside phase 5 and sealed bids: {acting}")


def check_full(state: State, rng: random.Random) -> None:
    """The cheap invariants, then ``legal`` against ``apply`` and the views."""
    check_cheap(state)
    acting = set(bots.to_act(state))
    for seat in range(state.n):
        offered = powergrid.legal(state, seat)
        if seat not in acting:
            if offered:
                _fail(state, f"seat {seat} is not awaited but is offered {offered}")
            continue
        if not offered:
            _fail(state, f"seat {seat} is awaited but offered nothing")
        types = [o["type"] for o in offered]
        if len(set(types)) != len(types):
            _fail(state, f"an action type offered twice: {types}")
        for option in offered:
            for _ in range(2):
                action = bots.random_action(state, seat, option, rng)
                try:
                    powergrid.apply(state, seat, action)
                except powergrid.IllegalAction as exc:
                    _fail(
                        state,
                        f"seat {seat}: legal offered {option}, apply refused {action}: {exc!r}",
                    )
    for seat in [None, *range(state.n)]:
        v = powergrid.view(state, seat)
        json.dumps(v)
        for row in v["players"]:
            # Money is secret until the end (the result ranks by it).
            if state.phase != FINISHED and row["seat"] != seat and row["money"] is not None:
                _fail(state, f"view for {seat} shows seat {row['seat']}'s money")
        if sorted(v["to_act"]) != sorted(acting):
            _fail(state, f"view to_act {v['to_act']} != {sorted(acting)}")


_JUNK: tuple[object, ...] = (-1, 10**9, 2**70, "3", 3.0, True, None, [], {}, "")


def _mutations(action: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {**action, "surprise": 1},
        {**action, "type": "teleport"},
        {**action, "type": rng.choice(list(ACTIONS))},
    ]
    for key, value in action.items():
        if key == "type":
            continue
        out.append({**action, key: rng.choice(_JUNK)})
        if isinstance(value, list):
            out.append({**action, key: [*value, "atlantis"]})
            out.append({**action, key: [*value, rng.choice(_JUNK)]})
            if value:
                out.append({**action, key: [*value, value[0]]})
        if isinstance(value, dict):
            out.append({**action, key: {**value, "plutonium": 1}})
            out.append({**action, key: {**value, "99": {"coal": 1}}})
            for sub in value:
                out.append({**action, key: {**value, sub: rng.choice(_JUNK)}})
    return out


def check_fuzz(state: State, rng: random.Random) -> None:
    """Broken variants of valid moves, and valid moves from the wrong seat, are refused with
    :class:`IllegalAction` (a known code), never another exception."""
    acting = bots.to_act(state)
    for seat in acting:
        for option in powergrid.legal(state, seat):
            action = bots.random_action(state, seat, option, rng)
            for bad in _mutations(action, rng):
                try:
                    powergrid.apply(state, seat, bad)
                except powergrid.IllegalAction as exc:
                    if exc.code not in CODES:
                        _fail(state, f"unknown code {exc.code!r} for {bad}")
                except Exception as exc:
                    _fail(state, f"seat {seat}: {bad} raised {exc!r}, not IllegalAction")
            for other in range(state.n):
                if other in acting:
                    continue
                try:
                    powergrid.apply(state, other, action)
                except powergrid.IllegalAction as exc:
                    if exc.code != "not_your_turn":
                        _fail(state, f"seat {other} out of turn got {exc.code!r}")
                else:
                    _fail(state, f"seat {other} out of turn was allowed {action}")
    for bad_seat in (-1, state.n, "0", None):
        try:
            powergrid.apply(state, bad_seat, {"type": "pass_bid"})  # type: ignore[arg-type]
        except powergrid.IllegalAction:
            pass
        else:
            _fail(state, f"seat {bad_seat!r} accepted")


def _order_key(state: State, seat: int) -> tuple[int, int]:
    p = state.players[seat]
    return (-len(p.cities), -max((RANK[x] for x in p.plants), default=0))


def check_transition(before: State, after: State, seat: int, action: dict[str, Any]) -> None:
    """What one accepted move did, recomputed independently where the rules make it simple:
    payments, token movements, income, resupply, player order and the plant market turnover."""
    kind = action["type"]
    n = before.n
    pb, pa = before.players, after.players
    delta = [pa[i].money - pb[i].money for i in range(n)]
    new_round = after.round == before.round + 1

    # Only the mover's money changes (and an auction's winner's, who may not be the mover).
    buyers = [i for i in range(n) if len(pa[i].plants) > len(pb[i].plants)]
    for i in range(n):
        if i != seat and i not in buyers and delta[i] != 0:
            _fail(after, f"seat {i}'s money changed on seat {seat}'s {kind}")
    if len(buyers) > 1:
        _fail(after, f"several players bought a plant at once: {buyers}")
    if buyers:
        (winner,) = buyers
        plant = next(x for x in pa[winner].plants if x not in pb[winner].plants)
        auc = before.auction
        price = auc.bid if auc is not None else NUMBER[plant]  # a lone chooser pays the minimum
        if auc is not None and plant != auc.plant:
            _fail(after, f"seat {winner} got plant {plant}, auction was for {auc.plant}")
        if delta[winner] != -price:
            _fail(after, f"seat {winner} paid {-delta[winner]} for plant {plant}, not {price}")
        if plant not in before.market:
            _fail(after, f"plant {plant} bought but it was not in the market")

    if kind == "buy_resources":
        bought = [pa[seat].res[r] - pb[seat].res[r] for r in range(4)]
        cost = sum(buy_cost(r, before.resources[r], bought[r]) for r in range(4))
        if bought != [action.get(name, 0) for name in RESOURCE_NAMES]:
            _fail(after, f"bought {bought} for {action}")
        if delta[seat] != -cost:
            _fail(after, f"resources cost {-delta[seat]}, expected {cost}")
        if any(after.resources[r] != before.resources[r] - bought[r] for r in range(4)):
            _fail(after, "the resource market did not give up exactly the tokens bought")

    if kind == "power":
        p = pb[seat]
        if action.get("plants") is None:
            fired, _, _ = best_power(p.plants, p.res, len(p.cities))
        else:
            fired = tuple(action["plants"])
        powered = min(sum(PLANTS[x].powers for x in fired), len(p.cities))
        if delta[seat] != income(powered):
            _fail(after, f"income {delta[seat]} for {powered} cities, expected {income(powered)}")
        burnt = [pb[seat].res[r] - pa[seat].res[r] for r in range(4)]
        need = {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0, "hybrid": 0}
        for x in fired:
            if PLANTS[x].fuel in need:
                need[PLANTS[x].fuel] += PLANTS[x].burns
        if (
            burnt[2] != need["garbage"]
            or burnt[3] != need["uranium"]
            or burnt[0] + burnt[1] != need["coal"] + need["oil"] + need["hybrid"]
            or burnt[0] < need["coal"]
            or burnt[1] < need["oil"]
        ):
            _fail(after, f"firing {fired} burnt {burnt}")
        if new_round:
            # Resupply from the supply left after burning, capped by the table and free places.
            table = RESUPPLY[n][before.step - 1]
            held = [sum(q.res[r] for q in pa) for r in range(4)]
            for r in range(4):
                m = before.resources[r]
                supply = TOTAL_TOKENS[r] - m - held[r]
                expect = m + min(table[r], supply, MARKET_CAPACITY[r] - m)
                if after.resources[r] != expect:
                    _fail(
                        after, f"resupply of {RESOURCE_NAMES[r]}: {after.resources[r]} != {expect}"
                    )
            # The plant market's turnover.
            if before.step < 3 and after.step < 3:
                if after.deck and after.deck[-1] != before.market[-1]:
                    _fail(after, f"plant {before.market[-1]} did not go under the deck")
                # An empty deck: the plant put under it is the one drawn again.
                if not after.deck and after.market != before.market:
                    _fail(after, "with an empty deck the market changed at the round's end")
            if before.step == 3 and before.market and before.market[0] not in after.removed:
                _fail(after, f"step 3: plant {before.market[0]} was not removed")

    if new_round:
        expect_order = tuple(sorted(before.order, key=lambda i: _order_key(after, i)))
        if after.order != expect_order:
            _fail(after, f"player order {after.order}, expected {expect_order}")
    if before.round == 1 and before.phase == AUCTION and after.phase != AUCTION:
        tops = [max(RANK[x] for x in pa[i].plants) for i in after.order]
        if tops != sorted(tops, reverse=True):
            _fail(after, f"round-1 order {after.order} is not by highest plant")
