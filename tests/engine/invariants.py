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
from powergrid.plants import PLANTS, STEP3
from powergrid.power import capacity, fits
from powergrid.state import AUCTION, BUREAUCRACY, FINISHED, State
from powergrid.tables import MARKET_CAPACITY, PLAYER_COUNTS, TOTAL_TOKENS

#: The whole deck: 42 plants and the Step 3 card.
WHOLE_DECK = Counter([*PLANTS, STEP3])
assert sum(WHOLE_DECK.values()) == 43


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
        if list(p.plants) != sorted(set(p.plants)):
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
    if everything != WHOLE_DECK:
        diff = (everything - WHOLE_DECK) + (WHOLE_DECK - everything)
        _fail(state, f"plants do not add up to the deck: {dict(diff)}")
    if len(state.setup_removed) != PLAYER_COUNTS[n].removed_at_setup:
        _fail(state, "wrong number of plants removed at setup")

    # The plant market: sorted, 8 plants (6 in step 3) unless the deck ran out.
    market = state.market
    if list(market) != sorted(market):
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
        if state.phase != BUREAUCRACY and len(acting) != 1:
            _fail(state, f"several seats to act outside phase 5: {acting}")


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
