"""Giving and withdrawing plans. Each function owns its transaction and takes the game's row lock
first, as a move does: a plan and a move on the same game are serialised, so a plan given while
its owner's move is being applied acts after it or not at all (never twice).

A plan that applies at once (its owner is awaited now) makes its move before the answer:
``plans_follow_now`` runs it as the move service runs plans after any move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import translation

from games import describe, engine, log, selectors, shapes
from games.callers import Caller
from games.fastpath import rows
from games.models import Game, Move, Plan
from games.plans.codec import PlanNotFound, plan_from_json
from games.plans.stored import plan_from_data, plan_key, plan_to_json
from games.services.errors import GameNotFound, NotAPlayer, ServiceError
from games.services.moves import plans_follow_now


def _locked_seat(game_id: int, user: Caller) -> tuple[Game, int]:
    game = rows.game_for_update(game_id)
    if game is None:
        raise GameNotFound()
    pk: int | None = getattr(user, "pk", None)
    seat = (
        None
        if pk is None  # an anonymous caller holds no seat
        else game.seats.filter(user_id=pk).values_list("seat", flat=True).first()
    )
    if seat is None:
        raise NotAPlayer()
    if game.status != Game.Status.RUNNING:
        raise ServiceError("Plans are for a game under way.", code="game_not_running", status=409)
    return game, int(seat)


def plan_set(*, game_id: int, user: Caller, body: Any) -> tuple[shapes.Plan, int, int]:
    """Give (or replace) one plan for the caller's seat. Returns the plan as stored, how many
    moves the plans made at once (0 if it waits for its turn) and the game's seq after them.
    Raises ``InvalidPlan`` (400) and the move service's errors."""
    with transaction.atomic():
        game, seat = _locked_seat(game_id, user)
        state = engine.state_load(
            game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
        )
        plan = plan_from_json(body, state, seat)
        data = plan_to_json(plan)
        Plan.objects.update_or_create(
            game=game, seat=seat, kind=plan.kind, key=plan_key(plan), defaults={"data": data}
        )
        if not game.plans_active:
            game.plans_active = True
            rows.update(game, ["plans_active"])
        made, seq = plans_follow_now(game.pk)
        return data, made, seq


def plan_delete(*, game_id: int, user: Caller, kind: str, plant: int | None = None) -> None:
    """Withdraw one of the caller's plans (a proxy bid names its plant). ``PlanNotFound`` (404)
    if there is none: a plan that has acted is gone already."""
    with transaction.atomic():
        game, seat = _locked_seat(game_id, user)
        deleted, _ = Plan.objects.filter(
            game=game, seat=seat, kind=kind, key=plant if kind == "proxy_bid" and plant else 0
        ).delete()
        if not deleted:
            raise PlanNotFound()
        if not Plan.objects.filter(game=game).exists():
            game.plans_active = False
            rows.update(game, ["plans_active"])


def plans_of(*, game: Game, seat: int) -> list[shapes.Plan]:
    """The seat's own plans (for its owner only: never call this for another seat's viewer)."""
    return [plan_to_json(plan_from_data(p.data)) for p in Plan.objects.filter(game=game, seat=seat)]


def plan_moves_described(
    *,
    game_id: int,
    seat: int,
    after: int,
    upto: int,
    names: Mapping[int, str] | None = None,
    lang: str = "en",
) -> list[shapes.PlanMove]:
    """The moves the seat's plans made between seq ``after`` (exclusive) and ``upto``, each as
    the move log says it: what ``plan_set`` did at once (``upto - moves_made`` to ``upto``),
    told by the API's answer and the plans page. ``names``: the seats' names as the sentence
    should show them (default: their display names, plain); ``lang``: the sentences' language
    (the API speaks English)."""
    game = selectors.game_get(game_id=game_id)
    if game is None or upto <= after:
        return []
    if names is None:
        names = {s.seat: selectors.seat_name(s) for s in selectors.game_seats(game)}
    # One entry per move, as docs/API.md promises: a move the log tells in several lines (a
    # sealed bid and what its opening did) is one entry, its lines' texts joined in order.
    acted: list[shapes.PlanMove] = []
    with translation.override(lang):
        for e in log.entries(game):
            if not (
                after < e["seq"] <= upto
                and e["seat"] == seat
                and e["source"] in (Move.Source.PLAN, Move.Source.SHEET)
            ):
                continue
            text = describe.move_describe(e, names, game.map, lang)
            if acted and acted[-1]["seq"] == e["seq"]:
                acted[-1]["text"] = f"{acted[-1]['text']} {text}"
            else:
                acted.append({"seq": e["seq"], "text": text})
    return acted
