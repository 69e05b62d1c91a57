"""Playing: the state as the caller may see it (now, or after an earlier move), the move log,
a move's submission, and the price of a build before it is made."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, services, shapes
from games.api import serializers as s
from games.api.base import GameView, query_int
from games.api.idempotency import HEADER, idempotent
from games.api.openapi import shape
from games.api.schema import COMMON, E400, E404, IDEMPOTENCY_PARAM, err, int_query
from games.models import Game, Move
from games.selectors.hints import QUOTE_MAX_CITIES, game_build_quote
from games.selectors.moves import move_list_public
from games.services.errors import GameNotFound, GameNotStarted


class GameStateView(GameView):
    @extend_schema(
        responses={
            200: shape(shapes.State),
            404: E404,
            409: err("game_not_started."),
            **COMMON,
        },
        tags=["play"],
        summary="The state as the caller may see it, with what the caller may do (legal)",
        description="Players see their own money; everyone else's is null. Non-players get "
        "the spectator view (no money, empty legal).",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game
        if game.status == Game.Status.OPEN:
            raise GameNotStarted()
        return Response(selectors.game_state_for(game, request.user))


class GameStateAtView(GameView):
    @extend_schema(
        operation_id="games_state_at",
        responses={
            200: shape(shapes.State),
            404: err("not_found: no such game, or no move `seq` yet (details.seq: the game's)."),
            409: err("game_not_started."),
            **COMMON,
        },
        tags=["play"],
        summary="The state after move `seq`, as the caller's seat could see it then",
        description="The engine's view of the position after `seq` moves (take-backs in the log "
        "applied), for the caller's seat (a spectator's for anyone else): nothing that was hidden "
        "then is shown now (other players' money stays null, the deck and the seed stay secret). "
        "`legal` is empty and `deadline` null; `seq` is the one asked for (0: the set-up).",
    )
    def get(self, request: Request, game_id: int, seq: int) -> Response:
        game = self.game
        if game.status == Game.Status.OPEN:
            raise GameNotStarted()
        if seq > game.seq:
            raise GameNotFound(
                f"No move {seq} yet: the game is at move {game.seq}.", details={"seq": game.seq}
            )
        return Response(selectors.game_history_state_for(game, request.user, seq))


class GameQuoteView(GameView):
    @extend_schema(
        operation_id="games_build_quote",
        parameters=[
            OpenApiParameter(
                "cities",
                str,
                many=True,
                explode=True,
                description=f"City slugs, repeated (`?cities=essen&cities=duisburg`), at most "
                f"{QUOTE_MAX_CITIES}; none: cost 0.",
            )
        ],
        responses={
            200: shape(shapes.BuildQuote),
            400: err(
                "The engine's refusal of a city (city_not_in_play, city_full, already_in_city, "
                f"city_unreachable, invalid_field), or invalid_field: more than "
                f"{QUOTE_MAX_CITIES} cities."
            ),
            403: err("not_a_player: the caller holds no seat in this game."),
            404: E404,
            409: err("game_not_running: only a game under way takes a build."),
            **COMMON,
        },
        tags=["play"],
        summary="What building in several cities at once would cost the caller",
        description="The cheapest order the rules allow for all of them together (build spaces "
        "plus the cheapest connections, each city's cost depending on the others), as the build "
        "form's total; `legal`'s `build` gives each city's cost alone. The same answer whether "
        "the caller uses a token or the site's session.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        cities = [c for c in request.query_params.getlist("cities") if c]
        return Response(game_build_quote(self.game, request.user, cities))


class GameMovesView(GameView):
    visible_on_error = ("POST",)

    @extend_schema(
        operation_id="games_moves_list",
        parameters=[int_query("since", "Only moves with seq > since (default 0).", low=0)],
        responses={200: shape(shapes.Move)(many=True), 400: E400, 404: E404, **COMMON},
        tags=["play"],
        summary="The move log after seq `since`",
    )
    def get(self, request: Request, game_id: int) -> Response:
        since = query_int(request, "since", 0, low=0)
        return Response(move_list_public(game=self.game, since=since))

    @extend_schema(
        operation_id="games_moves_create",
        request=s.MoveSubmitSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            201: shape(shapes.State),
            400: err(
                "The engine refused the move (not_your_turn, wrong_phase, unknown_action, "
                "invalid_field, unknown_plant, plant_not_available, bid_too_low, "
                "insufficient_funds, cannot_pass_round_one, no_storage, market_exhausted, "
                "city_not_in_play, city_full, already_in_city, plant_not_owned, "
                "not_enough_resources, game_over), or parse_error / invalid_field for the body."
            ),
            403: err("not_a_player: the caller holds no seat in this game."),
            404: E404,
            409: err(
                "stale_state: expected_seq is behind (details.seq is the current one); "
                "game_not_started."
            ),
            422: err("idempotency_key_reused."),
            **COMMON,
        },
        examples=[
            OpenApiExample(
                "Open an auction",
                value={
                    "action": {"type": "choose_plant", "plant": 13, "bid": 13},
                    "expected_seq": 0,
                },
                request_only=True,
            ),
            OpenApiExample(
                "Buy resources",
                value={"action": {"type": "buy_resources", "coal": 2}, "expected_seq": 12},
                request_only=True,
            ),
        ],
        tags=["play"],
        summary="Submit a move; 201 with the new state",
    )
    def post(self, request: Request, game_id: int) -> Response:
        ser = s.MoveSubmitSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        v = ser.validated_data
        key = request.headers.get(HEADER) or None
        source = Move.Source.WEB if request.auth is None else Move.Source.API

        def do() -> tuple[int, shapes.Body]:
            result = services.move_submit(
                game_id=game_id,
                user=request.user,
                action=v["action"],
                expected_seq=v["expected_seq"],
                source=source,
                idempotency_key=key,
            )
            return 201, selectors.game_state_for(result.game, request.user, state=result.state)

        return idempotent(request, do)
