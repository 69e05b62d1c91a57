"""``GET /api/v1/games/next/``: the game whose deadline is nearest among those waiting for the
caller's move (docs/API.md, "Next game waiting"); 204 when none."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import shapes, waiting
from games.api.base import game_or_404
from games.api.lobby import game_detail
from games.api.openapi import shape
from games.api.schema import COMMON


class NextGameView(APIView):
    @extend_schema(
        operation_id="games_next",
        responses={
            200: shape(shapes.NextGame),
            204: OpenApiResponse(description="No game is waiting for your move."),
            **COMMON,
        },
        tags=["games"],
        summary="The game waiting for your move whose deadline is nearest",
    )
    def get(self, request: Request) -> Response:
        found = waiting.waiting_for(request.user)
        if not found:
            return Response(status=status.HTTP_204_NO_CONTENT)
        first = found[0]
        body: shapes.NextGame = {
            "game": game_detail(game_or_404(first.game_id), request.user),
            "deadline": first.deadline.isoformat() if first.deadline else None,
            "waiting": len(found),
        }
        return Response(body)
