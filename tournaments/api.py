"""The tournaments' API (docs/API.md, "Tournaments"). Thin: the services do the work, the
presenters (``tournaments.present``) build the answers declared in ``tournaments.shapes``.
Every list is paged (``games.api.base.Paging``, as the games' list), so no answer grows with a
tournament's entrants.

    GET  /api/v1/tournaments/                   public tournaments, newest first (and yours), paged
    POST /api/v1/tournaments/                   create one (you direct it)
    GET  /api/v1/tournaments/{id}/              with its rounds, each's tables counted
    GET  /api/v1/tournaments/{id}/players/      its entrants, paged
    GET  /api/v1/tournaments/{id}/rounds/{n}/   a round's byes and its tables (-> game), paged
    POST /api/v1/tournaments/{id}/join/         enter (a private one: {"code": ...})
    POST /api/v1/tournaments/{id}/leave/        leave (after the start: drop out)
    POST /api/v1/tournaments/{id}/start/        the director starts it
    GET  /api/v1/tournaments/{id}/standings/    the standings in place order, paged
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import shapes as game_shapes
from games.api.base import Paging, query_choice, query_text
from games.api.openapi import shape
from games.api.schema import PAGING_PARAMS
from games.api.serializers import (
    RequestSerializer,
    StrictBooleanField,
    StrictCharField,
    WholeNumberField,
)
from games.services import lobby
from tournaments import present, selectors, services, shapes
from tournaments.errors import TournamentNotFound
from tournaments.models import Tournament


def _err(description: str) -> OpenApiResponse:
    return OpenApiResponse(shape(game_shapes.Error), description=description)


COMMON = {
    401: _err("not_authenticated / authentication_failed."),
    404: _err("not_found: no such tournament (a private one you have not entered, too)."),
    429: _err("throttled: details.retry_after seconds."),
}


class TournamentCreateSerializer(RequestSerializer):
    name = StrictCharField(max_length=services.NAME_MAX, help_text="1 to 80 characters.")
    maps = serializers.ListField(
        child=StrictCharField(), min_length=1, help_text="Map slugs; each table plays one."
    )
    table_min = WholeNumberField(min_value=3, max_value=6, default=3)
    table_max = WholeNumberField(min_value=3, max_value=6, default=5)
    rounds = WholeNumberField(min_value=1, max_value=services.ROUNDS_MAX, default=3)
    turn_hours = WholeNumberField(
        min_value=lobby.TURN_HOURS_MIN, max_value=lobby.TURN_HOURS_MAX, default=24
    )
    private = StrictBooleanField(default=False, help_text="Unlisted; entered with its code.")
    signup_deadline = serializers.DateTimeField(
        required=False, allow_null=True, help_text="It starts then by itself (if enough entered)."
    )
    rating_min = WholeNumberField(
        required=False, allow_null=True,
        min_value=services.RATING_LIMITS[0], max_value=services.RATING_LIMITS[1],
        help_text="Only players rated at least this may enter.",
    )  # fmt: skip
    rating_max = WholeNumberField(
        required=False, allow_null=True,
        min_value=services.RATING_LIMITS[0], max_value=services.RATING_LIMITS[1],
        help_text="Only players rated at most this may enter; not below rating_min.",
    )  # fmt: skip


class TournamentJoinSerializer(RequestSerializer):
    code = StrictCharField(
        required=False, default="", allow_blank=True, help_text="A private tournament's code."
    )


CODE_PARAM = OpenApiParameter("code", str, description="A private tournament's code (given once).")

M = TypeVar("M", bound=Model)


def _visible(tournament_id: int, request: Request) -> Tournament:
    code = query_text(request.query_params, "code")  # given twice: 400, whatever the id
    t = Tournament.objects.filter(pk=tournament_id).select_related("director").first()
    if t is None or not selectors.may_see(t, request.user, code):
        raise TournamentNotFound()
    return t


def _page(
    request: Request, view: APIView, rows: QuerySet[M], item: Callable[[M], Any]
) -> dict[str, Any]:
    """The page of ``rows`` the query asks for (``Paging``), each row as ``item`` shows it."""
    return Paging().answer(request, view, rows, lambda page: [item(x) for x in page])


class TournamentListView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status", str, enum=Tournament.Status.values, description="Filter by status."
            ),
            *PAGING_PARAMS,
        ],
        responses={
            200: shape(shapes.TournamentPage),
            400: _err("invalid_field."),
            401: COMMON[401],
            429: COMMON[429],
        },
        tags=["tournaments"],
        operation_id="tournaments_list",
        summary="Public tournaments (and your private ones), newest first, paged",
    )
    def get(self, request: Request) -> Response:
        status = query_choice(request.query_params, "status", list(Tournament.Status.values))
        qs = selectors.tournaments_listed(request.user)
        if status:
            qs = qs.filter(status=status)
        return Response(_page(request, self, qs.select_related("director"), present.summary))

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={
            201: shape(shapes.Tournament),
            400: _err("invalid_field (details.field) / parse_error."),
            **COMMON,
        },
        examples=[
            OpenApiExample(
                "A three-round cup",
                value={
                    "name": "Autumn cup",
                    "maps": ["germany", "usa"],
                    "table_min": 3,
                    "table_max": 5,
                    "rounds": 3,
                    "turn_hours": 24,
                },
                request_only=True,
            )
        ],
        tags=["tournaments"],
        operation_id="tournaments_create",
        summary="Create a tournament (you direct it; enter it with join)",
    )
    def post(self, request: Request) -> Response:
        ser = TournamentCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        t = services.tournament_create(director=request.user, **ser.validated_data)
        return Response(present.detail(t, request.user), status=201)


class TournamentDetailView(APIView):
    @extend_schema(
        parameters=[CODE_PARAM],
        responses={
            200: shape(shapes.Tournament),
            400: _err("invalid_field: `code` given twice."),
            **COMMON,
        },
        tags=["tournaments"],
        operation_id="tournaments_read",
        summary="A tournament with its rounds, each's tables counted (entrants, tables: paged)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(present.detail(_visible(tournament_id, request), request.user))


class TournamentPlayersView(APIView):
    @extend_schema(
        parameters=[CODE_PARAM, *PAGING_PARAMS],
        responses={
            200: shape(shapes.TournamentEntrantPage),
            400: _err("invalid_field (details.field: limit, offset)."),
            **COMMON,
        },
        tags=["tournaments"],
        operation_id="tournaments_players",
        summary="A tournament's entrants, in the order they entered, paged",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        t = _visible(tournament_id, request)
        return Response(_page(request, self, present.entrants_page(t), present.entrant))


class TournamentRoundView(APIView):
    @extend_schema(
        parameters=[CODE_PARAM, *PAGING_PARAMS],
        responses={
            200: shape(shapes.TournamentRoundTables),
            400: _err("invalid_field (details.field: limit, offset)."),
            404: _err(
                "not_found: no such tournament (a private one you have not entered, too), or "
                "it has no round of that number (yet)."
            ),
            401: COMMON[401],
            429: COMMON[429],
        },
        tags=["tournaments"],
        operation_id="tournaments_round",
        summary="A round: its byes and a page of its tables (each's game and players)",
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        rnd = present.round_numbered(_visible(tournament_id, request), number)
        if rnd is None:
            raise TournamentNotFound("No such round.")
        tables = _page(request, self, present.tables_page(rnd), present.table)
        return Response({**present.round_head(rnd), **tables})


class TournamentJoinView(APIView):
    @extend_schema(
        request=TournamentJoinSerializer,
        responses={
            200: shape(shapes.Tournament),
            403: _err("outside_rating_range."),
            409: _err("tournament_started / already_entered."),
            **COMMON,
        },
        tags=["tournaments"],
        operation_id="tournaments_join",
        summary="Enter an open tournament",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        ser = TournamentJoinSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        code = ser.validated_data["code"]
        if not Tournament.objects.filter(pk=tournament_id).exists():
            raise TournamentNotFound()
        services.tournament_join(tournament_id=tournament_id, user=request.user, code=code)
        t = Tournament.objects.get(pk=tournament_id)
        return Response(present.detail(t, request.user))


class TournamentLeaveView(APIView):
    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.Tournament),
            403: _err("not_entered."),
            409: _err("tournament_finished."),
            **COMMON,
        },
        tags=["tournaments"],
        operation_id="tournaments_leave",
        summary="Leave (before the start) or drop out (after: not seated again)",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        _visible(tournament_id, request)
        t = services.tournament_leave(tournament_id=tournament_id, user=request.user)
        return Response(present.detail(t, request.user))


class TournamentStartView(APIView):
    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.Tournament),
            403: _err("not_director."),
            409: _err("tournament_started / too_few_entrants (details.entrants, table_min)."),
            **COMMON,
        },
        tags=["tournaments"],
        operation_id="tournaments_start",
        summary="Start: seat round 1 and start every table's game",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        _visible(tournament_id, request)
        t = services.tournament_start(tournament_id=tournament_id, user=request.user)
        return Response(present.detail(t, request.user))


class TournamentStandingsView(APIView):
    @extend_schema(
        parameters=[CODE_PARAM, *PAGING_PARAMS],
        responses={
            200: shape(shapes.Standings),
            400: _err("invalid_field (details.field: limit, offset)."),
            **COMMON,
        },
        tags=["tournaments"],
        operation_id="tournaments_standings",
        summary="The standings in place order (points, then cities powered, money, "
        "head-to-head), paged",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        t = _visible(tournament_id, request)
        rows = Paging().answer(request, self, present.standings_ranked(t), present.standing_rows)
        return Response({**present.standings_head(t), **rows})
