"""The one place that runs plans: after a move, make every move the plans now make.

``follow`` is called by the move service (``games.services.moves``) inside the move's
transaction, with the game row locked, whenever ``Game.plans_active`` is set. It asks the engine
(``powergrid.plans.plan_move``) what each awaited seat's plans do, applies that move with
``powergrid.apply`` (the same checks as any move), and repeats until the game awaits only seats
without an applicable plan. It writes nothing but plan rows (used or dropped, kept aside as
``SpentPlan`` for a take-back to put back); the service writes
the moves (source ``plan``) and calls the turn hook once for the whole chain, so notifications go
only to the seats finally awaited.

An order the state no longer allows (prices moved, a city taken) is dropped and its reason kept
in ``Followed.notes``: the owner's turn email says why they are asked after all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.models import Game, Plan, SpentPlan
from games.plans.stored import plan_from_data
from powergrid import apply, to_act
from powergrid import plans as p
from powergrid.errors import IllegalAction
from powergrid.state import FINISHED, State

#: A chain longer than this is a bug (a plan that never lets the game wait): stop and ask.
MAX_CHAIN = 400

_ONE_USE = (p.BuyOrder, p.BuildOrder, p.PowerOrder)


@dataclass
class Followed:
    """What the plans did: the state after them, the moves made ((seat, action) in order) and,
    per seat, why its order was not used."""

    state: State
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    #: Per move of ``moves``: made by a round sheet's plan (logged with source ``sheet``).
    by_sheet: list[bool] = field(default_factory=list)
    #: The seats awaited after each move of ``moves`` (the event stream tells each move).
    acting: list[list[int]] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)


def follow(game: Game, state: State) -> Followed:
    """Run ``game``'s plans from ``state`` (see the module's docstring)."""
    rows = list(Plan.objects.filter(game=game))
    live: dict[int, dict[int, tuple[Plan, p.Plan]]] = {}
    for row in rows:
        live.setdefault(row.seat, {})[row.pk] = (row, plan_from_data(row.data))
    used: list[int] = []
    out = Followed(state=state)
    for _ in range(MAX_CHAIN):
        if out.state.phase == FINISHED:
            break
        by_seat = {
            seat: [pl for row, pl in plans.values() if not _past_sheet(row, out.state)]
            for seat, plans in live.items()
        }
        rivals = p.proxy_maxima(out.state, by_seat)
        acted = False
        for seat in to_act(out.state):
            mine = live.get(seat)
            if not mine:
                continue
            decision = p.plan_move(out.state, seat, list(by_seat[seat]), rivals)
            plan_row = _row_of(mine, decision.plan)
            if decision.action is not None:
                try:
                    out.state = apply(out.state, seat, decision.action)
                except (
                    IllegalAction
                ) as exc:  # plan_move checked it: a refusal here is a bug, told as one
                    out.notes[seat] = exc.message
                    _drop(live, used, seat, plan_row)
                    continue
                out.moves.append((seat, decision.action))
                out.by_sheet.append(plan_row is not None and plan_row.sheet)
                out.acting.append(sorted(to_act(out.state)))
                out.notes.pop(seat, None)
                if isinstance(decision.plan, _ONE_USE):
                    _drop(live, used, seat, plan_row)
                acted = True
                break
            if decision.reason and plan_row is not None:
                out.notes[seat] = decision.reason
                _drop(live, used, seat, plan_row)
        if not acted:
            break
    stale = [
        row.pk
        for plans in live.values()
        for row, plan in plans.values()
        if row.pk not in used and (is_stale(plan, out.state) or _past_sheet(row, out.state))
    ]
    gone = used + stale
    if gone:
        # Kept aside with the move they answered (the game's seq now): a take-back of that
        # move puts them back (games.takebacks), to be evaluated again.
        by_pk = {row.pk: row for row in rows}
        SpentPlan.objects.bulk_create(
            [
                SpentPlan(
                    game=game,
                    seat=by_pk[pk].seat,
                    kind=by_pk[pk].kind,
                    key=by_pk[pk].key,
                    data=by_pk[pk].data,
                    sheet=by_pk[pk].sheet,
                    seq=game.seq,
                )
                for pk in gone
            ]
        )
        Plan.objects.filter(pk__in=gone).delete()
    if len(gone) == len(rows):
        game.plans_active = False
    return out


def _past_sheet(row: Plan, state: State) -> bool:
    """A line of an earlier round's sheet (a sheet is one round's plans: its proxy bids, which
    name no round, end with it too)."""
    return row.sheet and int(row.data.get("sheet_round", 0)) < state.round


def _row_of(mine: dict[int, tuple[Plan, p.Plan]], plan: p.Plan | None) -> Plan | None:
    if plan is None:
        return None
    return next((row for row, pl in mine.values() if pl == plan), None)


def _drop(
    live: dict[int, dict[int, tuple[Plan, p.Plan]]], used: list[int], seat: int, row: Plan | None
) -> None:
    if row is not None:
        live[seat].pop(row.pk, None)
        used.append(row.pk)


def is_stale(plan: p.Plan, state: State) -> bool:
    """Whether ``plan`` can no longer act: a proxy for a plant gone from the market (bought, or
    removed), an order for a round that is over. Kept otherwise (``pass_when_nothing`` always)."""
    if state.phase == FINISHED:
        return True
    if isinstance(plan, p.ProxyBid):
        in_auction = state.auction is not None and state.auction.plant == plan.plant
        return not in_auction and plan.plant not in state.market
    if isinstance(plan, p.PassWhenNothing):
        return False
    return plan.round < state.round
