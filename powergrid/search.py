"""Search bots: determinised rollouts with the heuristic bot as the rollout policy.

For a decision, :class:`SearchBot` lists a few candidate moves (the heuristic bot's own, and
its variations: another plant, a higher or lower limit in an auction, more or less fuel, more or
fewer cities, each discard), then repeats, within its :class:`Budget`:

1. draw one complete state consistent with the seat's view (``powergrid.determinize``: the
   unseen deck, the others' money, sealed bids), never the real state;
2. for every candidate, make the move on that state and play the game to its end with the
   heuristic bot in every seat (in an auction, the seat keeps to the candidate's limit);
3. score the end for the seat: 1 for a win (shared on a tie) plus a little for a better rank.

Every candidate is played on the same draws (common random numbers), so their totals differ
by the move, not by the luck of the deck. The candidate with the best mean wins; the
heuristic bot's own move wins ties, so a search too short to tell falls back on it.

The budget is a count of rollouts with a wall-clock cap: with the cap out of reach the choice
is a function of the view and the seed alone (tests and the benchmark use no cap, so a busy
machine does not change the moves); the cap is only a safety in production, bounding a
decision's time on a slow or busy machine (a draw is not started when, at the mean cost of a
rollout so far, it would end past the cap; the first draw always runs). A phase gets its share
of the count (:data:`PHASE_SHARE`): buying resources less, the auctions and builds all of it.
A decision with one
candidate (powering, most of phase 5) costs no search. Cloning is cheap here: ``apply``
shares every unchanged part of a state, so a rollout costs what the moves cost
(``bench/bot_strength.py`` measures it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from powergrid import editions
from powergrid.determinize import ViewLike, determinize, public_state
from powergrid.engine import apply
from powergrid.errors import IllegalAction
from powergrid.heuristic import HeuristicBot, _forced_drop, _scores, _weakest_score
from powergrid.plants import NUMBER, STEP3
from powergrid.state import AUCTION, BUILD, FINISHED, RESOURCES, State
from powergrid.turns import first_to_act

Action = dict[str, Any]

#: Draws after which the candidates are first halved (then after twice as many, and so on).
_FIRST_RUNG = 3

#: The share of the rollout budget a decision of a phase gets (1 where not listed). Buying
#: resources moves the result least (its candidates differ by a token or two), so it gets less,
#: and the auctions and builds, which decide games, keep the whole budget.
PHASE_SHARE: dict[str, float] = {RESOURCES: 0.5}

#: A rollout longer than this many moves is cut short (scored as it stands).
ROLLOUT_MAX_MOVES = 3000


@dataclass(frozen=True)
class Budget:
    """What one decision may spend: ``rollouts`` games played out (over all candidates),
    stopped early at ``seconds`` of wall-clock time (after the first draw)."""

    rollouts: int
    seconds: float

    def scaled(self, factor: float) -> Budget:
        return Budget(max(1, round(self.rollouts * factor)), self.seconds * factor)


class _Tuned(HeuristicBot):
    """The heuristic bot with its buying and building moved by a step (a candidate's variant)."""

    def __init__(self, fuel_ahead: int = 2, want_delta: int = 0) -> None:
        self.fuel_ahead = fuel_ahead
        self.want_delta = want_delta

    def _build_plan(self, state: State, seat: int) -> tuple[int, int]:
        want, budget = super()._build_plan(state, seat)
        return max(0, want + self.want_delta), budget


_heuristic = HeuristicBot()


class _Limited(HeuristicBot):
    """The heuristic bot that, in the auction of ``plant`` under way, bids the minimum up to
    ``limit`` (its candidate's commitment), and plays as the heuristic bot otherwise."""

    def __init__(self, plant: int, limit: int) -> None:
        self.plant = plant
        self.limit = limit

    def choose(self, state: State, seat: int) -> Action:
        auc = state.auction
        if (
            state.phase == AUCTION
            and state.discard is None
            and auc is not None
            and auc.plant == self.plant
            and auc.high != seat
        ):
            need = auc.bid + 1
            ok = need <= min(self.limit, state.players[seat].money)
            if auc.sealed is not None:
                return {"type": "seal_bid", "amount": self.limit} if ok else {"type": "pass_bid"}
            return {"type": "bid", "amount": need} if ok else {"type": "pass_bid"}
        return super().choose(state, seat)


@dataclass
class Candidate:
    """A move to try, and the policy the seat follows in the rollout after it."""

    action: Action
    policy: HeuristicBot


def _key(action: Mapping[str, Any]) -> str:
    return repr(sorted((k, repr(v)) for k, v in action.items()))


def candidates(state: State, seat: int, *, wide: bool = True) -> list[Candidate]:
    """The moves worth comparing for ``seat`` (the heuristic bot's first), without repeats.
    ``wide=False`` keeps fewer variations (the cheaper level)."""
    out: list[Candidate] = []
    seen: set[str] = set()

    def add(action: Action, policy: HeuristicBot = _heuristic) -> None:
        k = _key(action)
        if k not in seen:
            seen.add(k)
            out.append(Candidate(action, policy))

    phase = state.phase
    base = _heuristic.choose(state, seat)
    player = state.players[seat]
    if phase == AUCTION:
        auc = state.auction
        if state.discard is not None:
            add(base)
            bought = state.discard[1]
            for n in player.plants:
                if n != bought:
                    action: Action = {"type": "discard_plant", "plant": n}
                    drop = _forced_drop(player.plants, player.res, n)
                    if drop:
                        action["drop"] = drop
                    add(action)
            return out
        if auc is not None:
            limit = _heuristic.bid_limit(state, seat, auc.plant)
            need = auc.bid + 1
            add(base)
            add({"type": "pass_bid"})
            steps = (0, 6, 15) if wide else (0, 8)
            for extra in steps:
                top = min(max(limit, need) + extra, player.money)
                if top < need:
                    continue
                first: Action = (
                    {"type": "seal_bid", "amount": top}
                    if auc.sealed is not None
                    else {"type": "bid", "amount": need}
                )
                k = _key(first) + f"/{top}"
                if k in seen:
                    continue
                seen.add(k)
                out.append(Candidate(first, _Limited(auc.plant, top)))
            return out
        add(base)
        current = state.market if state.step == 3 else state.market[:4]
        scores = _scores(state.resources)
        weakest = _weakest_score(state, player.plants, scores)
        ranked = sorted(
            (n for n in current if n != STEP3 and NUMBER[n] <= player.money),
            key=lambda n: -(scores[n] - (weakest or 0.0)),
        )
        for n in ranked[: 3 if wide else 2]:
            limit = max(NUMBER[n], _heuristic.bid_limit(state, seat, n))
            add({"type": "choose_plant", "plant": n, "bid": NUMBER[n]}, _Limited(n, limit))
        if state.round > 1:
            add({"type": "pass_auction"})
        return out
    if phase == RESOURCES:
        add(base)
        for ahead in (0, 4) if wide else (0,):
            bot = _Tuned(fuel_ahead=ahead)
            add(bot.choose(state, seat))
        add({"type": "buy_resources"})
        return out
    if phase == BUILD:
        add(base)
        for delta in (-1, 1, 2) if wide else (-1, 1):
            bot = _Tuned(want_delta=delta)
            add(bot.choose(state, seat))
        add({"type": "build", "cities": []})
        return out
    add(base)
    return out


def rollout(
    state: State, policies: Mapping[int, HeuristicBot], max_moves: int = ROLLOUT_MAX_MOVES
) -> State:
    """Play ``state`` to its end: each seat by its policy in ``policies``, else the heuristic."""
    h = _heuristic
    moves = 0
    while state.phase != FINISHED and moves < max_moves:
        seat = first_to_act(state)
        bot = policies.get(seat, h)
        state = apply(state, seat, bot.choose(state, seat))
        moves += 1
    return state


def score(state: State, seat: int) -> float:
    """The end of a rollout for ``seat``: a win (shared on a tie), plus a little per rank and
    for the margin over the best other player (cities powered, then money). The margin says
    how near a loss was to a win: with a few rollouts per move it tells moves apart that the
    wins alone would not."""
    n = state.n
    result = state.result
    if result is None:  # cut short: rank by cities, then money
        keyed = sorted(
            range(n),
            key=lambda i: (-len(state.players[i].cities), -state.players[i].money),
        )
        rank = keyed.index(seat) + 1
        return 0.1 * (n - rank) / (n - 1)
    rank = result[seat][3]
    winners = sum(1 for row in result if row[3] == 1)
    win = 1.0 / winners if rank == 1 else 0.0
    mine = result[seat][0] + result[seat][1] / 100
    best = max(row[0] + row[1] / 100 for i, row in enumerate(result) if i != seat)
    margin = max(-1.0, min(1.0, (mine - best) / 4))
    return win + 0.1 * (n - rank) / (n - 1) + 0.3 * margin


@dataclass
class Decision:
    """What a search found: the move, and per candidate its mean score (for tests, benches)."""

    action: Action
    means: list[tuple[Action, float]]
    iterations: int
    #: Rollouts played (over all candidates).
    rollouts: int = 0


class SearchBot:
    """A seat played by determinised rollouts (see the module). ``seed`` with the view seeds
    the draws, so the same view gets the same move when the wall-clock cap is not reached."""

    def __init__(
        self,
        budget: Budget,
        *,
        seed: int | str = 0,
        wide: bool = True,
        edition: int = editions.LATEST,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.budget = budget
        self.seed = seed
        self.wide = wide
        self.edition = edition
        self.clock = clock

    def search(self, v: ViewLike, seat: int, accounts: Sequence[int] | None = None) -> Decision:
        """The decision for ``seat`` from its view ``v`` and, if given, the accounts kept from
        the public log (each seat's money: ``powergrid.determinize``)."""
        start = self.clock()
        public = public_state(v, seat, edition=self.edition)
        cands = candidates(public, seat, wide=self.wide)
        if len(cands) == 1:
            return Decision(cands[0].action, [(cands[0].action, 0.0)], 0)
        # Seeded by what the seat sees (its legal moves and the position's public facts).
        rng = random.Random(f"{self.seed}:{seat}:{_fingerprint(v)}")
        k = len(cands)
        totals = [0.0] * k
        counts = [0] * k
        alive = list(range(k))
        spent = 0
        draws = 0
        rung = _FIRST_RUNG
        deadline = start + self.budget.seconds
        # The phase's share, but never under two draws a candidate (nor over the whole count).
        share = PHASE_SHARE.get(public.phase, 1.0)
        rollouts = max(min(self.budget.rollouts, 2 * k), round(self.budget.rollouts * share))
        while spent < rollouts and alive:
            if draws:
                # Stop before a draw that would likely end past the cap (a draw costs about
                # what the last one did per candidate still in).
                now = self.clock()
                per = (now - start) / spent if spent else 0.0
                if now + per * len(alive) > deadline:
                    break
            world = determinize(v, seat, rng, edition=self.edition, accounts=accounts)
            draws += 1
            for i in list(alive):
                c = cands[i]
                try:
                    after = apply(world, seat, c.action)
                except IllegalAction:
                    alive.remove(i)  # not legal in this world: the view allowed it, so rare
                    continue
                end = rollout(after, {seat: c.policy})
                totals[i] += score(end, seat)
                counts[i] += 1
                spent += 1
            if draws == rung and len(alive) > 2:
                # Successive halving: the better half goes on, on the same draws as before.
                alive.sort(key=lambda i: (-totals[i] / counts[i], i))
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
                rung *= 2
        means = [
            (c.action, totals[i] / counts[i] if counts[i] else 0.0) for i, c in enumerate(cands)
        ]
        best = alive[0] if alive else 0
        for i in alive:
            if counts[i] and (
                counts[i] > counts[best]
                or (counts[i] == counts[best] and means[i][1] > means[best][1] + 1e-9)
            ):
                best = i
        return Decision(cands[best].action, means, draws, spent)

    def choose_view(self, v: ViewLike, seat: int, accounts: Sequence[int] | None = None) -> Action:
        return self.search(v, seat, accounts).action


def _fingerprint(v: ViewLike) -> str:
    """A short, stable text of the view's public position (what seeds a decision's draws)."""
    players = v["players"]
    return repr(
        (
            v["round"],
            v["phase"],
            v["step"],
            v["to_act"],
            v["deck_size"],
            [(len(p["cities"]), len(p["plants"]), p["money"]) for p in players],
            [c.get("id", c.get("number")) for c in v["plant_market"]["current"]],
            v["auction"] and (v["auction"]["high_bid"], v["auction"]["high_bidder"]),
        )
    )
