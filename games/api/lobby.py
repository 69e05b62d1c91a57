"""Games and their lobby: the list (filtered, paged) and creation, one game's detail, and
taking, offering and giving up seats before the start (join, invite, leave, start)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services, shapes
from games.api import serializers as s
from games.api.base import GameView, Paging, flag, game_or_404, query_choice
from games.api.idempotency import idempotent
from games.api.openapi import shape
from games.api.schema import COMMON, E400, E404, IDEMPOTENCY_PARAM, PAGING_PARAMS, err
from games.models import Game
from games.selectors.detail import game_detail_for
from games.selectors.lists import game_list


class GameListView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=Game.Status.values, description="Filter."),
            OpenApiParameter("mine", bool, description="Only games where the caller has a seat."),
            OpenApiParameter(
                "seeking_substitute",
                bool,
                description="Only running games with a seat offered to substitutes (each seat's "
                "`offered`); claim one with `POST /api/v1/games/{id}/substitute/`.",
            ),
            *PAGING_PARAMS,
        ],
        responses={200: shape(shapes.GamePage), 400: E400, **COMMON},
        tags=["games"],
        operation_id="games_list",
        summary="List games, newest first",
    )
    def get(self, request: Request) -> Response:
        st = query_choice(request.query_params, "status", list(Game.Status.values))
        qs = game_list(
            user=request.user,
            status=st,
            mine=flag(request.query_params, "mine"),
            seeking_substitute=flag(request.query_params, "seeking_substitute"),
        )
        paginator = Paging()
        page = paginator.paginate_queryset(qs, request, view=self) or []
        data = [game_detail(g, request.user) for g in page]
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=s.GameCreateSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            201: shape(shapes.Game),
            400: err("invalid_field / unknown_map / parse_error."),
            422: err("idempotency_key_reused."),
            **COMMON,
        },
        tags=["games"],
        summary="Create a game (the caller takes seat 0)",
    )
    def post(self, request: Request) -> Response:
        ser = s.GameCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        v = ser.validated_data

        def do() -> tuple[int, shapes.Body]:
            game = services.game_create(
                creator=request.user,
                map=v["map"],
                max_players=v["max_players"],
                areas=v.get("areas"),
                options=dict(v.get("options") or {}),
            )
            return 201, game_detail(game, request.user)

        return idempotent(request, do)


def game_detail(game: Game, user: selectors.Reader) -> shapes.Game:
    """One game as ``user`` may see it, its seats in order when they were read with it."""
    if hasattr(game, "_prefetched_objects_cache") and "seats" in game._prefetched_objects_cache:
        game.seats_read = sorted(game.seats.all(), key=lambda x: x.seat)
    return game_detail_for(game, user)


class GameDetailView(GameView):
    @extend_schema(
        operation_id="games_retrieve",
        responses={200: shape(shapes.Game), 404: E404, **COMMON},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(game_detail(self.game, request.user))


class _LobbyView(GameView):
    action_name = ""

    def run(self, game_id: int, user: selectors.Reader) -> Game | None:
        raise NotImplementedError

    def post(self, request: Request, game_id: int) -> Response:
        game = self.run(game_id, request.user)
        if game is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        game = game_or_404(game.pk)
        return Response(game_detail(game, request.user))


class GameJoinView(_LobbyView):
    def visible_game(self, request: Request) -> Game | None:
        """The rule, and for a private game hidden from the caller, the code of its link in
        the body (which shows an open private game to whoever holds it)."""
        game = super().visible_game(request)
        if game is not None:
            return game
        try:
            body = request.data
        except ParseError:  # answered as for any hidden game: nothing is told
            return None
        code = body.get("code") if isinstance(body, dict) else ""
        return selectors.game_for(
            game_id=self.kwargs["game_id"], user=request.user, seats=True, code=code
        )

    @extend_schema(
        request=s.JoinSerializer,
        responses={
            200: shape(shapes.Game),
            400: E400,
            403: err(
                "not_invited (an invitee or staff member of a private game without the code) / "
                "removed_by_creator / below_reliability."
            ),
            404: err("not_found: no such game, or a private game and not its code."),
            409: err("game_already_started / game_full / already_joined."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Take a seat in an open game (a private one with its code)",
    )
    def post(self, request: Request, game_id: int) -> Response:
        code = str(s.body_checked(s.JoinSerializer, request.data).get("code") or "")
        seat = services.game_join(game_id=game_id, user=request.user, code=code)
        return Response(game_detail(game_or_404(seat.game_id), request.user))


class GameInvitationsView(GameView):
    @extend_schema(
        request=s.InvitationSerializer,
        responses={
            201: shape(shapes.Invitation),
            400: err("invalid_field: no such username."),
            403: err(
                "not_creator / invitation_refused (the player takes no invitations from you)."
            ),
            404: E404,
            409: err("game_already_started / already_joined."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Invite a player by username (the creator; they get an email)",
        description="At most INVITATIONS_SENT_PER_HOUR (20) invitations sent by a player and "
        "INVITATIONS_RECEIVED_PER_HOUR (5) received by one, an hour: 429 throttled beyond.",
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = s.body_checked(s.InvitationSerializer, request.data)
        invitation = services.game_invite(
            game_id=game_id, user=request.user, username=body.get("username")
        )
        answer: shapes.Invitation = {"username": invitation.user.get_username()}
        return Response(answer, status=status.HTTP_201_CREATED)


class GameLeaveView(_LobbyView):
    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.Game),
            204: OpenApiResponse(description="The last player left; the game is deleted."),
            403: err("not_a_player."),
            404: E404,
            409: err("game_already_started."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Give up a seat in an open game",
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)

    def run(self, game_id: int, user: selectors.Reader) -> Game | None:
        return services.game_leave(game_id=game_id, user=user)


class GameStartView(_LobbyView):
    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.Game),
            400: err("invalid_field: the engine refused the areas for this player count."),
            403: err("not_creator."),
            404: E404,
            409: err("game_already_started / not_enough_players."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Start the game (creator only, 2+ players); the engine draws the player order",
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)

    def run(self, game_id: int, user: selectors.Reader) -> Game | None:
        return services.game_start(game_id=game_id, user=user)
