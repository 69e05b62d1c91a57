"""The leagues' API (docs/API.md, "Leagues"). Thin: ``tournaments.leagues`` does the work,
``tournaments.league_present`` builds the answers declared in ``tournaments.shapes``.

    GET  /api/v1/leagues/                        every league, newest first, paged
    POST /api/v1/leagues/                        create one (you direct it)
    GET  /api/v1/leagues/{id}/                   with its seasons, each's divisions counted
    GET  /api/v1/leagues/{id}/players/           its members, paged
    POST /api/v1/leagues/{id}/join/              become a member (during a season: from the next)
    POST /api/v1/leagues/{id}/leave/             leave (in a season: drop out of your division)
    POST /api/v1/leagues/{id}/start/             the director starts the first season
    GET  /api/v1/leagues/{id}/seasons/{number}/  a season: a page of its divisions with their
                                                 standings

Every list is paged (``games.api.base.Paging``, as the tournaments'), so no answer grows with
a league's members. Leagues are not private: whoever is signed in reads them all.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import shapes as game_shapes
from games.api.base import Paging
from games.api.openapi import shape
from games.api.schema import PAGING_PARAMS, paging_params
from games.api.serializers import RequestSerializer, StrictCharField, WholeNumberField
from games.services import lobby
from tournaments import league_present, leagues, services, shapes
from tournaments.errors import LeagueNotFound
from tournaments.models import League, Season


def _err(description: str) -> OpenApiResponse:
    return OpenApiResponse(shape(game_shapes.Error), description=description)


COMMON = {
    401: _err("not_authenticated / authentication_failed."),
    404: _err("not_found: no such league (or season)."),
    429: _err("throttled: details.retry_after seconds."),
}


class LeagueCreateSerializer(RequestSerializer):
    name = StrictCharField(max_length=services.NAME_MAX, help_text="1 to 80 characters.")
    maps = serializers.ListField(
        child=StrictCharField(), min_length=1, help_text="Map slugs; each table plays one."
    )
    table_min = WholeNumberField(min_value=3, max_value=6, default=3)
    table_max = WholeNumberField(min_value=3, max_value=6, default=5)
    rounds = WholeNumberField(
        min_value=1, max_value=services.ROUNDS_MAX, default=3, help_text="Rounds a season."
    )
    turn_hours = WholeNumberField(
        min_value=lobby.TURN_HOURS_MIN, max_value=lobby.TURN_HOURS_MAX, default=24
    )
    division_size = WholeNumberField(
        min_value=3,
        max_value=leagues.DIVISION_SIZE_MAX,
        default=9,
        help_text="The most members a division holds (at least table_max).",
    )
    movers = WholeNumberField(
        min_value=leagues.MOVERS_LIMITS[0],
        max_value=leagues.MOVERS_LIMITS[1],
        default=2,
        help_text=(
            "How many go up and down at each division's boundary: at most half of"
            " division_size (divisions of 9: at most 4)."
        ),
    )


class DivisionPaging(Paging):
    """A season's divisions, a page at a time: fewer a page than other lists, as each holds
    up to ``division_size`` (at most ``leagues.DIVISION_SIZE_MAX``) rows of standings, so a
    page holds at most 20 x 60 rows."""

    default_limit = 5
    max_limit = 20


E400_PAGE = _err("invalid_field (details.field: limit, offset).")


def _league(league_id: int) -> League:
    league = league_present.listed(league_id)
    if league is None:
        raise LeagueNotFound()
    return league


class LeagueListView(APIView):
    @extend_schema(
        parameters=PAGING_PARAMS,
        responses={
            200: shape(shapes.LeaguePage),
            400: E400_PAGE,
            401: COMMON[401],
            429: COMMON[429],
        },
        tags=["leagues"],
        operation_id="leagues_list",
        summary="Leagues, newest first, paged",
    )
    def get(self, request: Request) -> Response:
        rows = league_present.leagues_listed()
        shown = Paging().answer(
            request, self, rows, lambda p: [league_present.summary(x) for x in p]
        )
        return Response(shown)

    @extend_schema(
        request=LeagueCreateSerializer,
        responses={
            201: shape(shapes.League),
            400: _err("invalid_field (details.field) / parse_error."),
            401: COMMON[401],
            429: COMMON[429],
        },
        examples=[
            OpenApiExample(
                "A weekly league",
                value={
                    "name": "Sunday league",
                    "maps": ["germany"],
                    "table_min": 3,
                    "table_max": 4,
                    "rounds": 3,
                    "turn_hours": 24,
                    "division_size": 8,
                    "movers": 2,
                },
                request_only=True,
            )
        ],
        tags=["leagues"],
        operation_id="leagues_create",
        summary="Create a league (you direct it; become a member with join)",
    )
    def post(self, request: Request) -> Response:
        ser = LeagueCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        league = leagues.league_create(director=request.user, **ser.validated_data)
        return Response(league_present.detail(_league(league.pk), request.user), status=201)


class LeagueDetailView(APIView):
    @extend_schema(
        responses={200: shape(shapes.League), **COMMON},
        tags=["leagues"],
        operation_id="leagues_read",
        summary="A league with its seasons, each's divisions counted (members, divisions: paged)",
    )
    def get(self, request: Request, league_id: int) -> Response:
        return Response(league_present.detail(_league(league_id), request.user))


class LeaguePlayersView(APIView):
    @extend_schema(
        parameters=PAGING_PARAMS,
        responses={200: shape(shapes.LeagueMemberPage), 400: E400_PAGE, **COMMON},
        tags=["leagues"],
        operation_id="leagues_players",
        summary="A league's members, in the order they joined, paged",
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(league_id)
        rows = league_present.members_page(league)
        return Response(Paging().answer(request, self, rows, league_present.members_shown(league)))


class LeagueJoinView(APIView):
    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.League),
            409: _err("already_member."),
            **COMMON,
        },
        tags=["leagues"],
        operation_id="leagues_join",
        summary="Become a member (during a season: you play from the next one)",
    )
    def post(self, request: Request, league_id: int) -> Response:
        leagues.league_join(league_id=league_id, user=request.user)
        return Response(league_present.detail(_league(league_id), request.user))


class LeagueLeaveView(APIView):
    @extend_schema(
        request=None,
        responses={200: shape(shapes.League), 403: _err("not_member."), **COMMON},
        tags=["leagues"],
        operation_id="leagues_leave",
        summary="Leave (during a season: drop out of your division)",
    )
    def post(self, request: Request, league_id: int) -> Response:
        leagues.league_leave(league_id=league_id, user=request.user)
        return Response(league_present.detail(_league(league_id), request.user))


class LeagueStartView(APIView):
    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.League),
            403: _err("not_director."),
            409: _err("season_running / too_few_entrants (details.entrants, table_min)."),
            **COMMON,
        },
        tags=["leagues"],
        operation_id="leagues_start",
        summary="Start a season: divisions by rating (then by promotion and relegation)",
    )
    def post(self, request: Request, league_id: int) -> Response:
        leagues.league_start(league_id=league_id, user=request.user)
        return Response(league_present.detail(_league(league_id), request.user))


class LeagueSeasonView(APIView):
    @extend_schema(
        parameters=paging_params(DivisionPaging.default_limit, DivisionPaging.max_limit),
        responses={200: shape(shapes.LeagueSeason), 400: E400_PAGE, **COMMON},
        tags=["leagues"],
        operation_id="leagues_season",
        summary="A season: a page of its divisions, each's standings and who moves up and down",
    )
    def get(self, request: Request, league_id: int, number: int) -> Response:
        league = _league(league_id)
        season = (
            Season.objects.filter(league=league, number=number).first()
            if number <= leagues.SEASON_MAX
            else None
        )
        if season is None:
            raise LeagueNotFound("No such season.")
        divisions = DivisionPaging().answer(
            request,
            self,
            league_present.divisions_of(season),
            league_present.divisions_shown(league, season),
        )
        return Response({**league_present.season_head(season), **divisions})
