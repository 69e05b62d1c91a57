"""A player's plans in a game (proxy bids, auto-pass, buy and build orders): listed, given
or replaced (acting at once when they apply), withdrawn. Never anyone else's."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games import numbers, selectors, services, shapes
from games.api import serializers as s
from games.api.base import GameView
from games.api.openapi import shape
from games.api.schema import COMMON, E403_PLAYER, E404, err, int_query
from games.plans.services import plan_delete, plan_moves_described, plan_set, plans_of
from powergrid.plants import PLANTS

MAX_PLANT = max(PLANTS)

E400_PLAN = err("invalid_plan: details.field names what is wrong.")


class GamePlansView(GameView):
    @extend_schema(
        operation_id="games_plans_list",
        responses={200: shape(shapes.PlanList), 403: E403_PLAYER, 404: E404, **COMMON},
        tags=["plans"],
        summary="Your plans in this game (never anyone else's)",
        description="Plans answer for you when your turn comes, with ordinary moves (source "
        "`plan` in the move log, which never shows the plan). A plan that has acted, or can no "
        "longer act (its plant was bought, its round is over), is gone from this list.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game
        seat = selectors.seat_of(game, request.user)
        if seat is None:
            raise services.NotAPlayer()
        body: shapes.PlanList = {"plans": plans_of(game=game, seat=seat.seat)}
        return Response(body)

    @extend_schema(
        operation_id="games_plans_set",
        request=s.PlanSerializer,
        responses={
            200: shape(shapes.PlanSet),
            400: E400_PLAN,
            403: E403_PLAYER,
            404: E404,
            409: err("game_not_running."),
            **COMMON,
        },
        tags=["plans"],
        summary="Give or replace a plan",
        description="One plan of each kind (a proxy bid per plant). If it applies now (it is "
        "your turn and it holds), its move is made before the answer: `moves_made` counts them "
        "and `acted` says what yours did, in the move log's words.",
        examples=[
            OpenApiExample(
                "Proxy bid",
                value={"kind": "proxy_bid", "plant": 13, "max": 20},
                request_only=True,
            ),
            OpenApiExample("Auto-pass", value={"kind": "auto_pass"}, request_only=True),
            OpenApiExample(
                "Buy order",
                value={"kind": "buy", "amounts": {"coal": 2}, "max_price": 4},
                request_only=True,
            ),
            OpenApiExample(
                "Build order",
                value={"kind": "build", "cities": ["essen", "duisburg"], "max_total": 40},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data, made, seq = plan_set(game_id=game_id, user=request.user, body=request.data)
        seat = selectors.seat_of(self.game, request.user)
        acted = (
            plan_moves_described(game_id=game_id, seat=seat.seat, after=seq - made, upto=seq)
            if made and seat is not None
            else []
        )
        body: shapes.PlanSet = {"plan": data, "moves_made": made, "seq": seq, "acted": acted}
        return Response(body)


class GamePlanDetailView(GameView):
    @extend_schema(
        operation_id="games_plans_delete",
        parameters=[int_query("plant", "proxy_bid: which plant's maximum.", low=1, high=MAX_PLANT)],
        responses={
            204: None,
            400: err("invalid_field: `plant` is not a whole number (details.field)."),
            403: E403_PLAYER,
            404: err("not_found / plan_not_found: no such plan (one that acted is gone)."),
            409: err("game_not_running: the game is over (its plans are gone with it)."),
            **COMMON,
        },
        tags=["plans"],
        summary="Withdraw a plan",
    )
    def delete(self, request: Request, game_id: int, kind: str) -> Response:
        plant = numbers.from_query(
            request.query_params, "plant", low=1, high=MAX_PLANT, empty_is_absent=False
        )
        plan_delete(game_id=game_id, user=request.user, kind=kind, plant=plant)
        return Response(status=status.HTTP_204_NO_CONTENT)
