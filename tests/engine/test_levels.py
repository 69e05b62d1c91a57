"""Every bot level decides from what its seat may see: in many positions of replayed games
(every map, variant and deck), the hidden parts of the real state are changed in ways the seat's
view cannot tell apart (the unseen cards, the others' money, the seed, the amounts of sealed
bids already in), and every level's move stays the same.

The search levels run on a fixed count of rollouts without a wall-clock cap, so their move is
a function of the view and the seed (their real budget is measured in bench/bot_strength.py).
"""

from __future__ import annotations

import random

import pytest

import powergrid
from powergrid.bots import play_game
from powergrid.determinize import determinize, public_state
from powergrid.heuristic import HeuristicBot
from powergrid.levels import (
    DEFAULT_LEVEL,
    LEVEL_NAMES,
    LEVELS,
    SEAL_SPREAD,
    TOP_LEVEL,
    LevelBot,
    below,
    sealed_amount,
    sealed_choice,
)
from powergrid.search import Budget, SearchBot, candidates
from powergrid.state import State
from powergrid.turns import first_to_act
from powergrid.view import view
from tests.engine.levelhelpers import hidden_twin, positions, positions_with_accounts

#: Small, uncapped: the same view and seed give the same move.
TEST_BUDGET = Budget(4, 1e9)


def _bot(level: str) -> LevelBot:
    return LevelBot(level, seed=5, budget=TEST_BUDGET)


def test_at_least_four_levels_weakest_first_with_names():
    assert len(LEVEL_NAMES) >= 4
    assert LEVEL_NAMES[0] == "beginner"
    assert DEFAULT_LEVEL == "heuristic"
    assert [LEVELS[n].rank for n in LEVEL_NAMES] == list(range(len(LEVEL_NAMES)))
    assert sum(LEVELS[n].budget is not None for n in LEVEL_NAMES) >= 2
    assert LEVEL_NAMES[-1] == TOP_LEVEL
    assert below("beginner") is None
    assert below(TOP_LEVEL) == LEVEL_NAMES[-2]


def _twins(every: int, limit: int | None = None):
    rng = random.Random(11)
    out = []
    for state, seat in positions(every=every):
        twin = hidden_twin(state, seat, rng)
        assert view(twin, seat) == view(state, seat)  # the seat cannot tell them apart
        out.append((state, twin, seat))
    return out if limit is None else out[:: max(1, len(out) // limit)]


def test_the_twins_really_differ_in_what_is_hidden():
    """The check below would pass vacuously if the twins were the same state."""
    twins = _twins(every=11)
    differ = [s for s, t, seat in twins if s.deck != t.deck or s.players != t.players]
    assert len(differ) > 0.9 * len(twins)


@pytest.mark.parametrize("level", [n for n in LEVEL_NAMES if LEVELS[n].budget is None])
def test_a_rule_level_moves_the_same_whatever_it_cannot_see(level):
    bot = _bot(level)
    twins = _twins(every=3)
    assert len(twins) >= 400
    for state, twin, seat in twins:
        assert bot.choose(twin, seat) == bot.choose(state, seat)


@pytest.mark.parametrize("level", [n for n in LEVEL_NAMES if LEVELS[n].budget is not None])
def test_a_search_level_moves_the_same_whatever_it_cannot_see(level):
    bot = _bot(level)
    twins = _twins(every=5, limit=45)
    assert len(twins) >= 40
    for state, twin, seat in twins:
        assert bot.choose(twin, seat) == bot.choose(state, seat)


def test_the_expert_keeps_accounts_and_the_advanced_level_does_not():
    """The expert reads the others' money from the public log's accounts; the levels below
    estimate it from the view."""
    assert [n for n in LEVEL_NAMES if LEVELS[n].accounts] == [TOP_LEVEL]
    assert LevelBot(TOP_LEVEL).keeps_accounts
    assert not LevelBot(below(TOP_LEVEL)).keeps_accounts


@pytest.mark.parametrize("level", [n for n in LEVEL_NAMES if LEVELS[n].accounts])
def test_a_level_keeping_accounts_moves_the_same_whatever_it_cannot_see(level):
    """Given the public log's accounts (the same for a position and its twin: the log does not
    change with what is hidden), the move depends on nothing the seat cannot see."""
    bot = _bot(level)
    rng = random.Random(12)
    checked = 0
    for k, (state, seat, accounts) in enumerate(positions_with_accounts(every=5)):
        if k % 7:
            continue
        twin = hidden_twin(state, seat, rng)
        assert view(twin, seat) == view(state, seat)
        assert bot.choose(twin, seat, accounts) == bot.choose(state, seat, accounts)
        checked += 1
    assert checked >= 40


def test_the_accounts_are_what_the_search_draws_its_money_from():
    """The draws give every other seat the accounts' money, and the seat its own, so the
    accounts are read (a level given them could not quietly ignore them)."""
    seen = 0
    for state, seat, accounts in positions_with_accounts(every=37):
        assert list(accounts) == [p.money for p in state.players]  # the log tells the truth
        odd = tuple(m + 7 * (i + 1) for i, m in enumerate(accounts))
        world = determinize(view(state, seat), seat, random.Random(3), accounts=odd)
        assert [p.money for p in world.players] == [
            state.players[i].money if i == seat else odd[i] for i in range(state.n)
        ]
        seen += 1
    assert seen >= 20


def test_the_heuristic_level_is_the_heuristic_bot():
    """The default level plays as the server's bot always has, though it reads only its view:
    except a sealed bid's amount, moved by its seed (below), every move is the heuristic bot's."""
    h = HeuristicBot()
    bot = _bot("heuristic")
    sealed = 0
    for state, seat in positions(every=4):
        mine, theirs = bot.choose(state, seat), h.choose(state, seat)
        auction = state.auction
        if auction is not None and auction.sealed is not None and state.discard is None:
            sealed += 1
            limit = h.auction_limit(state, seat)
            assert mine == sealed_choice(view(state, seat), seat, limit, 5)
            if theirs["type"] == "seal_bid" and mine["type"] == "seal_bid":
                assert abs(mine["amount"] - theirs["amount"]) <= SEAL_SPREAD
        else:
            assert mine == theirs
    assert sealed >= 5


def test_the_heuristic_levels_choice_to_bid_or_pass_follows_its_secret():
    """Near its limit, the same public position (the same view) gives a sealed bid with one
    secret seed and a pass with another: whether it bids is no more public than how much."""
    h = HeuristicBot()
    both = 0
    for state, seat in positions(every=1):
        auction = state.auction
        if auction is None or auction.sealed is None or state.discard is not None:
            continue
        if seat not in powergrid.to_act(state):
            continue
        kinds = {LevelBot("heuristic", seed=f"s{k}").choose(state, seat)["type"] for k in range(12)}
        if kinds == {"seal_bid", "pass_bid"}:
            both += 1
            near = h.auction_limit(state, seat) - (auction.bid + 1)
            assert abs(near) <= SEAL_SPREAD, near  # only where the draw can cross the least bid
    assert both >= 3, both


# -- a sealed bid is a secret: it follows the bot's seed, not public facts alone ---------------


def _sealed_positions(limit: int) -> list[tuple[State, int]]:
    """Positions where the seat is asked for a sealed bid and has room to bid more than the
    least (spread evenly over the sealed-bid games)."""
    out = []
    for state, seat in positions(every=1):
        bounds = [o for o in powergrid.legal(state, seat) if o["type"] == "seal_bid"]
        if bounds and bounds[0]["max"] - bounds[0]["min"] >= 2 * SEAL_SPREAD:
            out.append((state, seat))
    assert len(out) >= limit
    return out[:: max(1, len(out) // limit)][:limit]


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_levels_sealed_answer_depends_on_its_secret_seed(level):
    """The same position (the same public facts: the same view) with another seed, the secret
    the server keeps until the game's end (``games.deadlines.sweep.bot_seed``): a level's
    sealed answer (whether it bids, and how much) differs in most positions, so nobody can work
    it out from what is public; with the same seed it is the same (a replay makes the same
    choice). Every level, the heuristic one included (its amount only)."""
    budget = Budget(2, 1e9)
    checked = differ = 0
    for state, seat in _sealed_positions(limit=12 if LEVELS[level].budget else 30):
        answers = [
            LevelBot(level, seed=f"secret-{k}", budget=budget).choose(state, seat) for k in range(8)
        ]
        again = LevelBot(level, seed="secret-0", budget=budget).choose(state, seat)
        assert again == answers[0]
        checked += 1
        bids = [a for a in answers if a["type"] == "seal_bid"]
        if len({repr(sorted(a.items())) for a in answers}) > 1:
            differ += 1
        for a in bids:
            bounds = next(o for o in powergrid.legal(state, seat) if o["type"] == "seal_bid")
            assert bounds["min"] <= a["amount"] <= bounds["max"]
    assert checked >= 10
    # A bot that always bids the least, or its whole money, has no room to differ: a few may not.
    assert differ >= 0.6 * checked, (level, differ, checked)


def test_a_sealed_bids_draw_is_in_bounds_and_spread_over_them():
    """``sealed_amount`` keeps the amount legal and uses the whole spread."""
    v = {"round": 3, "auction": {"plant": {"number": 20}, "high_bid": 20, "opener": 0}}
    v["legal"] = [{"type": "seal_bid", "min": 21, "max": 40}]
    got = {sealed_amount(v, 1, 30, k) for k in range(300)}
    assert got == set(range(30 - SEAL_SPREAD, 30 + SEAL_SPREAD + 1))
    assert {sealed_amount(v, 1, 21, k) for k in range(300)} == set(range(21, 21 + SEAL_SPREAD + 1))
    assert {sealed_amount(v, 1, 40, k) for k in range(300)} == set(range(40 - SEAL_SPREAD, 41))


def test_the_check_catches_a_bot_that_reads_hidden_facts():
    """A bot that peeks at the deck or another's money moves differently on some twin: the
    check above would fail for a level that read the real state."""

    class Peeking:
        def choose(self, state, seat):
            move = HeuristicBot().choose(state, seat)
            if move["type"] == "build" and state.deck and state.deck[0] % 2:
                return {"type": "build", "cities": []}
            if move["type"] == "buy_resources" and state.players[(seat + 1) % state.n].money > 60:
                return {"type": "buy_resources"}
            return move

    bot = Peeking()
    twins = _twins(every=3)
    assert any(bot.choose(t, seat) != bot.choose(s, seat) for s, t, seat in twins)


def test_every_level_plays_legal_moves_to_the_end():
    for i, level in enumerate(LEVEL_NAMES):
        fast = LevelBot(level, seed=5, budget=Budget(2, 1e9))
        bots = [fast if k == i % 3 else HeuristicBot() for k in range(3)]
        final, moves = play_game(map="germany", players=3, seed=40 + i, bots=bots)
        assert final.result is not None
        assert moves


def test_a_search_starts_from_the_heuristic_move_and_keeps_it_on_a_tie():
    state = powergrid.new_game(map="germany", players=4, seed=3)
    seat = state.order[0]
    cands = candidates(public_state(view(state, seat), seat), seat)
    assert cands[0].action == HeuristicBot().choose(state, seat)
    assert len(cands) > 1


def test_the_clock_caps_a_decision_after_its_first_draw():
    ticks = iter(range(0, 10_000, 100))
    bot = SearchBot(Budget(1000, 0.5), clock=lambda: float(next(ticks)))
    state = powergrid.new_game(map="germany", players=4, seed=3)
    seat = state.order[0]
    decision = bot.search(view(state, seat), seat)
    assert decision.iterations == 1


def _first(phase: str):
    state = powergrid.new_game(map="germany", players=4, seed=8)
    h = HeuristicBot()
    while state.phase != phase or state.round < 2:
        seat = first_to_act(state)
        state = powergrid.apply(state, seat, h.choose(state, seat))
    return state, first_to_act(state)


def test_buying_resources_gets_half_the_rollouts_an_auction_all():
    """The budget is a count, shared by phase (``PHASE_SHARE``): the decisions that decide games
    (auctions, builds) spend all of it, buying resources half (a draw plays every candidate
    still in, so the count may be passed by less than one draw)."""
    bot = SearchBot(Budget(40, 1e9), seed=1)
    spent = {}
    for phase in ("auction", "resources", "build"):
        state, seat = _first(phase)
        v = view(state, seat)
        k = len(candidates(public_state(v, seat), seat))
        assert k > 1
        decision = bot.search(v, seat)
        spent[phase] = decision.rollouts
        assert decision.rollouts < (20 if phase == "resources" else 40) + k
    assert spent["resources"] >= 20
    assert spent["auction"] >= 40
    assert spent["build"] >= 40
