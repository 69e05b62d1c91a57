"""The beginner bot: legal moves with light preferences, an opponent a new player can beat.

It buys a plant it can afford (often the cheapest, sometimes another), rarely bids, buys fuel
for one firing only, builds at most two cities a turn once its plants can power them, powers
what it can and discards its smallest plant. It reads only public parts of a state and its own
money (the levels give it a state built from its view, ``powergrid.determinize``); its draws
come from a generator seeded by the position, so the same view gets the same move.
"""

from __future__ import annotations

import random
from typing import Any

from powergrid.heuristic import HeuristicBot, _forced_drop
from powergrid.plants import NUMBER, PLANTS, STEP3
from powergrid.state import AUCTION, BUILD, RESOURCES, State

Action = dict[str, Any]


class _Cautious(HeuristicBot):
    """The heuristic bot's buying and building, kept small: fuel for the cities it has, at most
    two new cities a turn, money held back."""

    fuel_ahead = 0
    build_reserve = 10

    def _build_plan(self, state: State, seat: int) -> tuple[int, int]:
        want, budget = super()._build_plan(state, seat)
        return min(want, 2), budget - 10


_cautious = _Cautious()


class BeginnerBot:
    """See the module. Stateless apart from its seed."""

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def _rng(self, state: State, seat: int) -> random.Random:
        key = (self.seed, seat, state.round, state.phase, len(state.players[seat].plants))
        return random.Random(repr(key))

    def choose(self, state: State, seat: int) -> Action:
        phase = state.phase
        if phase == AUCTION:
            return self._auction(state, seat)
        if phase in (RESOURCES, BUILD):
            return _cautious.choose(state, seat)
        return {"type": "power"}

    def _auction(self, state: State, seat: int) -> Action:
        player = state.players[seat]
        if state.discard is not None:
            bought = state.discard[1]
            smallest = min((n for n in player.plants if n != bought), key=lambda n: NUMBER[n])
            action: Action = {"type": "discard_plant", "plant": smallest}
            drop = _forced_drop(player.plants, player.res, smallest)
            if drop:
                action["drop"] = drop
            return action
        rng = self._rng(state, seat)
        auction = state.auction
        if auction is not None:
            need = auction.bid + 1
            number = NUMBER[auction.plant]
            want = need <= number + 2 and need <= player.money - 15 and rng.random() < 0.35
            if auction.sealed is not None:
                return {"type": "seal_bid", "amount": need} if want else {"type": "pass_bid"}
            if want and auction.high != seat:
                return {"type": "bid", "amount": need}
            return {"type": "pass_bid"}
        current = state.market if state.step == 3 else state.market[:4]
        affordable = [n for n in current if n != STEP3 and NUMBER[n] <= player.money]
        if state.round > 1:
            # A plant only now and then, and only when short of capacity.
            powers = sum(PLANTS[n].powers for n in player.plants)
            if powers > len(player.cities) + 1 or rng.random() < 0.5 or len(affordable) == 0:
                return {"type": "pass_auction"}
            affordable = [n for n in affordable if NUMBER[n] <= player.money - 20]
            if not affordable:
                return {"type": "pass_auction"}
        if not affordable:
            return {"type": "pass_auction"}
        plant = affordable[0] if rng.random() < 0.6 else rng.choice(affordable)
        return {"type": "choose_plant", "plant": plant, "bid": NUMBER[plant]}
