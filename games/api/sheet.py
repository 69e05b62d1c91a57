"""The API of round sheets (docs/API.md, "Round sheets"): a thin view over ``games.sheets``.

GET /api/v1/games/{id}/sheet/   your sheet for the round, filled in, with ``due``
PUT /api/v1/games/{id}/sheet/   answer it (what GET returns, PUT accepts unchanged)
"""

from __future__ import annotations

from datetime import UTC, datetime

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games import shapes
from games.api.base import GameView
from games.api.openapi import shape
from games.plans.services import plan_moves_described
from games.sheets import shapes as sheet_shapes
from games.sheets.services import seat_of_user, sheet_after, sheet_get, sheet_put


def _err(description: str) -> OpenApiResponse:
    return OpenApiResponse(shape(shapes.Error), description=description)


COMMON = {
    401: _err("not_authenticated / authentication_failed."),
    403: _err("not_a_player: a sheet is for the game's players."),
    404: _err("not_found: no such game."),
    429: _err("throttled: details.retry_after seconds (also the Retry-After header)."),
}
EXAMPLE: sheet_shapes.Sheet = {
    "game": 12,
    "round": 3,
    "phase": "auction",
    "due": True,
    "answered": False,
    "deadline": datetime(2026, 11, 3, 9, 0, tzinfo=UTC),
    "open": [
        {
            "plant": 13,
            "max": 19,
            "reason": {
                "code": "open_best",
                "params": {"plant": 13, "cities": 1},
                "text": "the best plant for you now: it powers 1 cities",
            },
        }
    ],
    "bids": [{"plant": 20, "max": 23}],
    "pass_else": {"value": True},
    "discard": {"plant": None},
    "resources": {"mode": "fuel", "max_price": 6, "amounts": {"coal": 2}},
    "build": {"mode": "auto", "max_total": 41, "cities": ["essen"]},
    "power": {"value": True},
}


class GameSheetView(GameView):
    @extend_schema(
        operation_id="games_sheet_get",
        responses={
            200: shape(sheet_shapes.Sheet),
            409: _err("game_not_running, seat_left (you resigned: the bot plays your seat)."),
            **COMMON,
        },
        tags=["sheets"],
        summary="Your round sheet, filled in with a suggestion",
        description="Your answers for the whole round: the plants to open (in order, each with "
        "a max), the most you pay for the others, fuel up to a price, cities up to a total, "
        "power. Filled in from your own view only, each line with its reason. `due`: the game "
        "waits for your answer; `deadline`: when the suggestion is played for you if you have "
        "not answered. Only you ever see your sheet.",
        examples=[OpenApiExample("A sheet", value=EXAMPLE, response_only=True)],
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(sheet_get(game=self.game, user=request.user))

    @extend_schema(
        operation_id="games_sheet_put",
        request=shape(sheet_shapes.Sheet),
        responses={
            200: shape(sheet_shapes.SheetAnswered),
            400: _err("invalid_sheet: details.line names the line (e.g. open[1].max)."),
            409: _err(
                "sheet_stale (details.round: the round now), game_not_running, seat_left "
                "(you resigned: the bot plays your seat)."
            ),
            **COMMON,
        },
        tags=["sheets"],
        summary="Answer your round sheet",
        description="Send the document GET returned, changed or not. Its lines replace your "
        "plans; whatever the sheets decide now is played before the answer (`moves_made`, "
        "`acted`). Read-only keys (due, answered, phase, reasons) are ignored.",
        examples=[OpenApiExample("Accept the suggestion", value=EXAMPLE, request_only=True)],
    )
    def put(self, request: Request, game_id: int) -> Response:
        made, seq = sheet_put(game_id=game_id, user=request.user, body=request.data)
        seat = seat_of_user(self.game, request.user)
        acted = (
            plan_moves_described(game_id=game_id, seat=seat, after=seq - made, upto=seq)
            if made
            else []
        )
        body: sheet_shapes.SheetAnswered = {
            "sheet": sheet_after(game_id=game_id, seat=seat),
            "moves_made": made,
            "seq": seq,
            "acted": acted,
        }
        return Response(body)
