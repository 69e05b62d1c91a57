"""The bot levels' ratings in the API: ``GET /api/v1/bot-levels/``, what the "Bot levels" page
(/bots/) shows, from the same table (``games.ratings.level_table``): each level, weakest first,
its name in the reader's language, its rating (null before its first rated game), the games that
rated it and its rating account (``GET /api/v1/players/{username}/``)."""

from __future__ import annotations

from typing import cast

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.replica import replica_reads
from games import ratings, shapes
from games.api.openapi import shape
from games.selectors.names import bot_name


def level_rows() -> list[shapes.BotLevelRating]:
    """Every level's row, as the page's table (its label in the active language)."""
    return [
        {
            "level": cast(shapes.BotLevel, r["level"]),
            "name": str(bot_name(r["level"])),
            "rating": r["rating"],
            "games": r["games"],
            "username": r["username"],
        }
        for r in ratings.level_table()
    ]


class BotLevelListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="bot_levels_list",
        responses={
            200: shape(shapes.BotLevelRating)(many=True),
            429: OpenApiResponse(
                shape(shapes.Error),
                description="throttled: details.retry_after seconds (also Retry-After).",
            ),
        },
        tags=["players"],
        summary="The bot levels and their ratings (what /bots/ shows)",
        description="Every level, weakest first. Each level is rated as a player of its own, "
        "from the finished games its bots played from the start (docs/API.md, Bot levels).",
        examples=[
            # One item: a list operation's example is one of its items, which drf-spectacular
            # lists (a list given here became a list inside a list).
            OpenApiExample(
                "A level rated",
                value={
                    "level": "heuristic",
                    "name": "Heuristic bot",
                    "rating": 112,
                    "games": 14,
                    "username": "bot-level-heuristic",
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        with replica_reads():  # a public record, as the page
            return Response(level_rows())
