"""The API of leaving a running game and substitutes (docs/API.md, "Leaving and substitutes").
Thin: ``games.services.seats`` does the work; the offered seats are listed by
``GET /api/v1/games/?seeking_substitute=true`` (``games.api.lobby``).

    POST /api/v1/games/{id}/resign/       leave now: the bot plays the seat, offered to substitutes
    POST /api/v1/games/{id}/seeking/      {"seeking": true|false}: offer my seat while I play on
    POST /api/v1/games/{id}/substitute/   {"seat": n}: take an offered seat
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games import shapes
from games.api.base import GameView, game_or_404
from games.api.idempotency import idempotent
from games.api.lobby import game_detail
from games.api.openapi import shape
from games.api.schema import COMMON, E400, E404, err
from games.api.serializers import RequestSerializer, StrictBooleanField, WholeNumberField
from games.services import seats as service

E409 = "game_over (the result stands), game_not_started, seat_left (you have left this game)"


class SeekingSerializer(RequestSerializer):
    seeking = StrictBooleanField(
        help_text="true: offer your seat to substitutes while you play on; false: withdraw."
    )


class SubstituteSerializer(RequestSerializer):
    seat = WholeNumberField(min_value=0, max_value=5, help_text="The offered seat to take.")


def _body(request: Request, game_id: int) -> shapes.Body:
    return game_detail(game_or_404(game_id), request.user)


class ResignView(GameView):
    @extend_schema(
        operation_id="games_resign",
        request=None,
        responses={
            200: shape(shapes.Game),
            403: err("not_a_player: the caller holds no seat in this game."),
            404: E404,
            409: err(E409 + "."),
            **COMMON,
        },
        tags=["seats"],
        summary="Leave a running game now: the game's bot level plays your seat, which is "
        "offered to substitutes",
        description="Your tenure of the seat ends (`resigned`): your moves stay yours, and for "
        "the rating you are ranked last (docs/RATINGS.md). You may no longer move in the game.",
    )
    def post(self, request: Request, game_id: int) -> Response:

        def do() -> tuple[int, shapes.Body]:
            service.seat_resign(game_id=game_id, user=request.user)
            return 200, _body(request, game_id)

        return idempotent(request, do)


class SeekingView(GameView):
    @extend_schema(
        operation_id="games_seeking",
        request=SeekingSerializer,
        responses={
            200: shape(shapes.Game),
            400: E400,
            403: err("not_a_player: the caller holds no seat in this game."),
            404: E404,
            409: err(
                E409 + ", seat_timed_out (the bot plays your seat: move to take it back), "
                "no_substitutes (the game takes none: `options.substitutes` false)."
            ),
            **COMMON,
        },
        examples=[OpenApiExample("Offer my seat", value={"seeking": True}, request_only=True)],
        tags=["seats"],
        summary="Offer your seat to substitutes while you play on (or withdraw the offer)",
    )
    def post(self, request: Request, game_id: int) -> Response:
        ser = SeekingSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        service.seat_seek(game_id=game_id, user=request.user, seeking=ser.validated_data["seeking"])
        return Response(_body(request, game_id))


class SubstituteView(GameView):
    @extend_schema(
        operation_id="games_substitute",
        request=SubstituteSerializer,
        responses={
            200: shape(shapes.Game),
            400: E400,
            403: err(
                "not_invited (a private game: invitees only) / below_reliability "
                "(details.min_on_time) / removed_by_creator."
            ),
            404: err("not_found: no such game (or a private game you are not invited to)."),
            409: err(
                "game_over, game_not_started, seat_not_offered, no_substitutes (the game "
                "takes none), already_seated (you hold or held a seat in this game), bot "
                "(a bot account)."
            ),
            **COMMON,
        },
        examples=[OpenApiExample("Take seat 2", value={"seat": 2}, request_only=True)],
        tags=["seats"],
        summary="Take a seat offered to substitutes",
        description="You hold the seat from now: if it is awaited, its deadline starts now and "
        "you get a turn email; the other players are told who joined.",
    )
    def post(self, request: Request, game_id: int) -> Response:
        ser = SubstituteSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        seat_no = int(ser.validated_data["seat"])

        def do() -> tuple[int, shapes.Body]:
            service.seat_claim(game_id=game_id, user=request.user, seat_no=seat_no)
            return 200, _body(request, game_id)

        return idempotent(request, do)
