"""Players' profiles in the API: ``GET /api/v1/players/{username}/``, what the player's page
(/players/{username}/) says, from the same facts (``games.players``): rating, reliability and
the games the reader may see listed (a private game only for its players and invitees)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.replica import replica_reads
from games import players, shapes
from games.api.base import query_int
from games.api.openapi import shape
from games.api.schema import int_query


def _err(description: str) -> OpenApiResponse:
    return OpenApiResponse(shape(shapes.Error), description=description)


class PlayerView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="players_retrieve",
        parameters=[
            int_query(
                "page", "The page of finished games (from 1; past the last: the last).", low=1
            )
        ],
        responses={
            200: shape(shapes.PlayerProfile),
            400: _err("invalid_field: `page` is not a whole number from 1."),
            404: _err("not_found: no such player."),
            429: _err("throttled: details.retry_after seconds (also the Retry-After header)."),
        },
        tags=["players"],
        summary="A player's profile: rating, reliability, games",
        description="Public facts, as the player's page shows them. The games listed are those "
        "the caller may see: a private game only to its players and invitees (and to the player "
        "themselves), never counted for anyone else.",
    )
    def get(self, request: Request, username: str) -> Response:
        page = query_int(request, "page", 1, low=1)
        user = get_user_model().objects.filter(username=username).select_related("profile").first()
        if user is None:
            raise NotFound("No such player.")
        with replica_reads():  # a public record: a second's lag is fine (as the page)
            body = players.profile_json(user, request.user, page=page)
        return Response(body)
