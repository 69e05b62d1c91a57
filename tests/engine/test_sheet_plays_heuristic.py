"""A round sheet of accepted suggestions plays as the heuristic level does (powergrid.sheet,
powergrid.plans): in seeded games where one seat plays by its sheets (filled in at the round's
start from its own view, asked again where the sheet cannot decide) and the others are the
heuristic bot, every move the sheet makes is the move the bot would make in that position:
the plant opened and its bid, each bid and pass, the discard, the fuel, the cities, power.

The suggestion before stop 36 lost: its player won 19.5 % against 25 % for the bot in the seat
(bench/sheet_strength.py). It opened only the plants in the market at the round's start (a
plant drawn during the auction was passed), bid the least needed where the bot jumps, and
capped fuel at a price the others' purchases pushed past. The positions it cannot express are
left out, named: a plant the bot opens without needing one (step 3: it must beat the plant
before it by a margin, a choice no order of preference gives), and a plant drawn from above the
market's highest (more purchases than a round has would be needed to bring it down; the sheet
does not list it)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import powergrid
from powergrid.heuristic import HeuristicBot
from powergrid.plans import Plan, plan_move, proxy_maxima
from powergrid.plants import NUMBER, STEP3
from powergrid.sheet import suggest, to_plans
from powergrid.state import AUCTION, FINISHED, State
from powergrid.view import view


def _sheet(state: State, seat: int) -> tuple[list[Plan], tuple[int, ...]]:
    """The seat's accepted sheet as plans, and the market it was filled in from."""
    return to_plans(suggest(view(state, seat), seat)), tuple(state.market)


def _inexpressible(state: State, seat: int, bots: dict[str, Any], market: tuple[int, ...]) -> str:
    """Why the sheet cannot make the bot's move here ("": it can)."""
    bot = HeuristicBot()
    if state.phase != AUCTION or state.auction is not None or state.discard is not None:
        return ""
    if state.round > 1 and state.step >= 3 and not bot.wants_capacity(state, seat):
        return "opens without needing a plant (a margin, no order)"
    plant = bots.get("plant")
    top = max((NUMBER[n] for n in market if n != STEP3), default=0)
    if plant is not None and plant not in market and state.step < 3 and NUMBER[plant] >= top:
        return "a plant drawn from above the market's highest"
    return ""


def _play(players: int, seed: int, seat: int) -> tuple[int, Counter[str], list[str]]:
    """One game: (moves the sheet made and compared, moves left out by reason, mismatches)."""
    bot = HeuristicBot()
    state = powergrid.new_game(map="germany", players=players, seed=seed)
    plans: list[Plan] = []
    market: tuple[int, ...] = ()
    sheet_round = 0
    compared = 0
    left_out: Counter[str] = Counter()
    wrong: list[str] = []
    while state.phase != FINISHED:
        if state.round != sheet_round and state.phase == AUCTION:
            sheet_round = state.round
            plans, market = _sheet(state, seat)
        awaited = powergrid.to_act(state)
        if seat not in awaited:
            state = powergrid.apply(state, awaited[0], bot.choose(state, awaited[0]))
            continue
        rivals = proxy_maxima(state, {seat: plans})
        decision = plan_move(state, seat, plans, rivals)
        if decision.action is None:  # asked again: a sheet for what remains, accepted
            plans, market = _sheet(state, seat)
            decision = plan_move(state, seat, plans, proxy_maxima(state, {seat: plans}))
        bots = bot.choose(state, seat)
        if decision.action is None:
            state = powergrid.apply(state, seat, bots)
            continue
        mine = decision.action
        # The same move: the same position after it (a discard that names the tokens it must
        # give up, as the bot's does, or leaves them to the rule, is one move).
        if powergrid.to_json(powergrid.apply(state, seat, mine)) != powergrid.to_json(
            powergrid.apply(state, seat, bots)
        ):
            why = _inexpressible(state, seat, bots, market)
            if why:
                left_out[why] += 1
            else:
                wrong.append(f"seed {seed} round {state.round} {state.phase}: {mine} != {bots}")
        else:
            compared += 1
        state = powergrid.apply(state, seat, mine)
    return compared, left_out, wrong


@pytest.mark.parametrize("players", [3, 4, 5])
def test_an_accepted_sheet_makes_the_heuristic_levels_moves(players: int) -> None:
    compared = 0
    left_out: Counter[str] = Counter()
    wrong: list[str] = []
    for i in range(8):
        c, out, bad = _play(players, 7000 + i, i % players)
        compared += c
        left_out += out
        wrong += bad
    assert wrong == []
    assert compared > 8 * 40  # whole games of moves, every phase
    assert sum(left_out.values()) <= compared // 50  # the exceptions are rare


def test_a_sheet_bids_and_opens_for_a_plant_drawn_during_the_auction() -> None:
    """The bot opens a plant drawn after the sheet was filled in (the market then had it not):
    the sheet names the plants that may be drawn, so it opens the same one."""
    hits = 0
    for seed in range(7000, 7012):
        bot = HeuristicBot()
        state = powergrid.new_game(map="germany", players=4, seed=seed)
        seat = seed % 4
        plans, market = _sheet(state, seat)
        sheet_round = 1
        while state.phase != FINISHED and state.round < 6:
            if state.round != sheet_round and state.phase == AUCTION:
                sheet_round = state.round
                plans, market = _sheet(state, seat)
            awaited = powergrid.to_act(state)
            if seat not in awaited:
                state = powergrid.apply(state, awaited[0], bot.choose(state, awaited[0]))
                continue
            bots = bot.choose(state, seat)
            d = plan_move(state, seat, plans, proxy_maxima(state, {seat: plans}))
            if bots.get("type") == "choose_plant" and bots["plant"] not in market:
                assert d.action == bots
                hits += 1
            state = powergrid.apply(state, seat, d.action or bots)
    assert hits >= 3
