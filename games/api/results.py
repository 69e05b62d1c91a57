"""What anyone may read of a game as a whole: the record of a finished game (to verify it with
the engine alone), its result (scores and per-round figures), and a running game's forecast."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response

from games import results, selectors, services, shapes
from games.api.base import GameView
from games.api.openapi import shape
from games.api.schema import E404, E429, err
from games.forecast import forecast
from games.models import Game
from games.services.errors import GameNotFinished, NoRecord


class GameRecordView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_record",
        responses={
            200: shape(shapes.GameRecord),
            404: E404,
            409: err(
                "game_not_finished: the seed stays secret until the end; no_record: a practice "
                "game began from a position, not from a seed."
            ),
            429: E429,
        },
        tags=["games"],
        summary="A finished game's record, to verify its shuffle and moves with the engine alone",
        description="From the start, every game's `seed_commitment` is SHA-256 of "
        '`"<game id>:<seed>"`. At the end the seed is revealed here with the set-up, every move '
        "and the results: `python -m powergrid verify record.json` checks that the seed matches "
        "the commitment and that replaying the moves from it reaches these results.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game
        if game.practice:
            raise NoRecord()
        if game.status != Game.Status.FINISHED:
            raise GameNotFinished()
        return Response(selectors.game_record(game))


class GameResultView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_result",
        responses={
            200: shape(shapes.GameResult),
            404: E404,
            409: err("game_not_finished: money is secret until the end."),
            429: E429,
        },
        tags=["games"],
        summary="A finished game's scores and per-round figures (the result page's charts)",
        description="Each seat's money, cities and plants at the start of every round and at "
        "the end, replayed from the move log, with the score table. Only once the game is "
        "over: before, the others' money is secret.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game
        result = results.game_result(game)
        if result is None:
            raise GameNotFinished("The result comes at the end: money is secret until then.")
        return Response(results.game_result_json(game, result))


class GameForecastView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_forecast",
        responses={
            200: shape(shapes.Forecast),
            404: E404,
            409: err("game_not_running: only a game under way has a forecast."),
            429: E429,
        },
        tags=["games"],
        summary="When the game is expected to end, and who it waits on most",
        description="From public information only (round, cities, the move log's seats and "
        "times): rounds left from the leader's pace, this game's waits per round, and each "
        "seat's median reply time over its last 20 moves.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        result = forecast(self.game)
        if result is None:
            raise services.ServiceError(
                "Only a game under way has a forecast.", code="game_not_running", status=409
            )
        return Response(result.as_json())
