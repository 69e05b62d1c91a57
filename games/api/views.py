"""The REST API, /api/v1/ (shared/API.md). Thin: validate, call a service or selector, answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import authenticate
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import permissions, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed, NotFound, ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Profile
from games import engine, selectors, services
from games.api import serializers as s
from games.api.idempotency import HEADER, idempotent
from games.api.throttles import ScopedThrottle
from games.models import BenchRow, Game, Move
from games.services.errors import GameNotFound, GameNotStarted

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission


def _err(description: str) -> OpenApiResponse:
    return OpenApiResponse(s.ErrorSerializer, description=description)


E400 = _err("invalid_field / parse_error: the body is not valid.")
E401 = _err("not_authenticated / authentication_failed.")
E404 = _err("not_found: no such game.")
E429 = _err("throttled: details.retry_after seconds (also the Retry-After header).")
COMMON = {401: E401, 429: E429}

IDEMPOTENCY_PARAM = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (e.g. a UUID) up to 255 characters. A retry with the same key "
    "and body returns the first response (header `Idempotent-Replayed: true`) and changes "
    "nothing; the same key with a different body is refused with 422 idempotency_key_reused.",
)


def _game_or_404(game_id: int, *, seats: bool = True) -> Game:
    """The game, with its seats read in the same query unless ``seats`` is False."""
    game = (
        selectors.game_get_with_seats(game_id=game_id)
        if seats
        else selectors.game_get(game_id=game_id)
    )
    if game is None:
        raise GameNotFound()
    return game


# ---------------------------------------------------------------- auth
class TokenView(APIView):
    authentication_classes = [*APIView.authentication_classes]
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "token_create"

    def get_authenticators(self) -> list[BaseAuthentication]:
        # POST takes credentials only: no session (and so no CSRF) for it.
        if self.request is not None and self.request.method == "POST":
            return []
        return super().get_authenticators()

    def get_authenticate_header(self, request: Request) -> str:
        return 'Token realm="api"'  # wrong credentials are a 401, not a 403

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:
        if self.request is not None and self.request.method == "DELETE":
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        operation_id="auth_token_create",
        summary="Create an API token",
        request=s.TokenCreateSerializer,
        responses={200: s.TokenResponseSerializer, 400: E400, 401: E401, 429: E429},
        auth=[],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.TokenCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=ser.validated_data["username"],
            password=ser.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise AuthenticationFailed("Wrong username or password.")
        instance, token = AuthToken.objects.create(user=user, expiry=None)
        return Response({"token": token, "expiry": instance.expiry})

    @extend_schema(
        operation_id="auth_token_revoke",
        summary="Revoke the token this request is authenticated with",
        request=None,
        responses={204: None, **COMMON},
        tags=["auth"],
    )
    def delete(self, request: Request) -> Response:
        if isinstance(request.auth, AuthToken):
            request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------- me
class MeView(APIView):
    def _data(self, user: Any) -> dict[str, Any]:
        prof, _ = Profile.objects.get_or_create(user=user)
        return {
            "username": user.get_username(),
            "email": user.email,
            "display_name": prof.display_name,
            "timezone": prof.timezone,
            "language": prof.language,
            "notification_mode": prof.notification_mode,
            "reminder_fraction": prof.reminder_fraction,
            "vacation_days_per_year": prof.vacation_days_per_year,
            "vacation_days_used": prof.vacation_days_used,
        }

    @extend_schema(responses={200: s.MeSerializer, **COMMON}, tags=["me"])
    def get(self, request: Request) -> Response:
        return Response(self._data(request.user))

    @extend_schema(
        request=s.MeSerializer,
        responses={200: s.MeSerializer, 400: E400, **COMMON},
        tags=["me"],
        summary="Change display name, timezone, language or notification settings",
    )
    def patch(self, request: Request) -> Response:
        ser = s.MeSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        prof, _ = Profile.objects.get_or_create(user=request.user)
        for key, value in ser.validated_data.items():
            setattr(prof, key, value)
        prof.save()
        return Response(self._data(request.user))


# ---------------------------------------------------------------- maps
class MapListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: s.MapSummarySerializer(many=True), 429: E429}, tags=["maps"])
    def get(self, request: Request) -> Response:
        out = []
        for slug in engine.maps_available():
            d = engine.map_load(slug).to_dict()
            out.append({k: d[k] for k in ("slug", "name_en", "name_ja", "areas", "required_areas")})
        return Response(out)


class MapDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: s.MapSerializer, 404: _err("not_found: no such map."), 429: E429},
        tags=["maps"],
    )
    def get(self, request: Request, slug: str) -> Response:
        if slug not in engine.maps_available():
            raise NotFound("No such map.")
        return Response(engine.map_load(slug).to_dict())


# ---------------------------------------------------------------- games
class GamePagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes", "on")


class GameListView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=Game.Status.values, description="Filter."),
            OpenApiParameter("mine", bool, description="Only games where the caller has a seat."),
            OpenApiParameter("limit", int, description="Page size (default 50, max 200)."),
            OpenApiParameter("offset", int, description="Start of the page."),
        ],
        responses={200: s.PaginatedGamesSerializer, 400: E400, **COMMON},
        tags=["games"],
        operation_id="games_list",
        summary="List games, newest first",
    )
    def get(self, request: Request) -> Response:
        st = request.query_params.get("status")
        if st and st not in Game.Status.values:
            raise ValidationError({"status": [f"Must be one of {', '.join(Game.Status.values)}."]})
        qs = selectors.game_list(
            user=request.user, status=st, mine=_truthy(request.query_params.get("mine"))
        )
        paginator = GamePagination()
        page = paginator.paginate_queryset(qs, request, view=self) or []
        data = [_detail(g, request.user) for g in page]
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=s.GameCreateSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            201: s.GameSerializer,
            400: _err("invalid_field / unknown_map / parse_error."),
            422: _err("idempotency_key_reused."),
            **COMMON,
        },
        tags=["games"],
        summary="Create a game (the caller takes seat 0)",
    )
    def post(self, request: Request) -> Response:
        ser = s.GameCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        v = ser.validated_data

        def do() -> tuple[int, Any]:
            game = services.game_create(
                creator=request.user,
                map=v["map"],
                max_players=v["max_players"],
                areas=v.get("areas"),
                options=dict(v.get("options") or {}),
            )
            return 201, _detail(game, request.user)

        return idempotent(request, do)


def _detail(game: Game, user: Any) -> dict[str, Any]:
    if hasattr(game, "_prefetched_objects_cache") and "seats" in game._prefetched_objects_cache:
        game._seats_cache = sorted(game.seats.all(), key=lambda x: x.seat)  # type: ignore[attr-defined]
    return selectors.game_detail_for(game, user)


class GameDetailView(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        responses={200: s.GameSerializer, 404: E404, **COMMON},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(_detail(_game_or_404(game_id), request.user))


class _LobbyView(APIView):
    action_name = ""

    def run(self, game_id: int, user: Any) -> Game | None:
        raise NotImplementedError

    def post(self, request: Request, game_id: int) -> Response:
        game = self.run(game_id, request.user)
        if game is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        game = _game_or_404(game.pk)
        return Response(_detail(game, request.user))


class GameJoinView(_LobbyView):
    @extend_schema(
        request=None,
        responses={
            200: s.GameSerializer,
            404: E404,
            409: _err("game_already_started / game_full / already_joined."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Take a seat in an open game",
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)

    def run(self, game_id: int, user: Any) -> Game | None:
        return services.game_join(game_id=game_id, user=user).game


class GameLeaveView(_LobbyView):
    @extend_schema(
        request=None,
        responses={
            200: s.GameSerializer,
            204: OpenApiResponse(description="The last player left; the game is deleted."),
            403: _err("not_a_player."),
            404: E404,
            409: _err("game_already_started."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Give up a seat in an open game",
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)

    def run(self, game_id: int, user: Any) -> Game | None:
        return services.game_leave(game_id=game_id, user=user)


class GameStartView(_LobbyView):
    @extend_schema(
        request=None,
        responses={
            200: s.GameSerializer,
            400: _err("invalid_field: the engine refused the areas for this player count."),
            403: _err("not_creator."),
            404: E404,
            409: _err("game_already_started / not_enough_players."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Start the game (creator only, 2+ players); the engine draws the player order",
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)

    def run(self, game_id: int, user: Any) -> Game | None:
        return services.game_start(game_id=game_id, user=user)


class GameStateView(APIView):
    @extend_schema(
        responses={
            200: s.StateSerializer,
            404: E404,
            409: _err("game_not_started."),
            **COMMON,
        },
        tags=["play"],
        summary="The state as the caller may see it, with what the caller may do (legal)",
        description="Players see their own money; everyone else's is null. Non-players get "
        "the spectator view (no money, empty legal).",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _game_or_404(game_id)
        if game.status == Game.Status.OPEN:
            raise GameNotStarted()
        return Response(selectors.game_state_for(game, request.user))


class GameMovesView(APIView):
    @extend_schema(
        operation_id="games_moves_list",
        parameters=[
            OpenApiParameter("since", int, description="Only moves with seq > since (default 0).")
        ],
        responses={200: s.MoveSerializer(many=True), 400: E400, 404: E404, **COMMON},
        tags=["play"],
        summary="The move log after seq `since`",
    )
    def get(self, request: Request, game_id: int) -> Response:
        raw = request.query_params.get("since", "0") or "0"
        try:
            since = int(raw)
            if since < 0 or since > 2**31:
                raise ValueError
        except ValueError:
            raise ValidationError({"since": ["A whole number ≥ 0."]}) from None
        game = _game_or_404(game_id, seats=False)
        moves = selectors.move_list(game=game, since=since)
        return Response(
            [
                {
                    "seq": m.seq,
                    "seat": m.seat,
                    "action": m.action,
                    "time": m.created_at,
                    "source": m.source,
                }
                for m in moves.only("seq", "seat", "action", "created_at", "source")
            ]
        )

    @extend_schema(
        operation_id="games_moves_create",
        request=s.MoveSubmitSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            201: s.StateSerializer,
            400: _err(
                "The engine refused the move (not_your_turn, wrong_phase, unknown_action, "
                "invalid_field, unknown_plant, plant_not_available, bid_too_low, "
                "insufficient_funds, cannot_pass_round_one, no_storage, market_exhausted, "
                "city_not_in_play, city_full, already_in_city, plant_not_owned, "
                "not_enough_resources, game_over), or parse_error / invalid_field for the body."
            ),
            403: _err("not_a_player: the caller holds no seat in this game."),
            404: E404,
            409: _err(
                "stale_state: expected_seq is behind (details.seq is the current one); "
                "game_not_started."
            ),
            422: _err("idempotency_key_reused."),
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

        def do() -> tuple[int, Any]:
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


# ---------------------------------------------------------------- bench floor
class BenchInsertView(APIView):
    """Bench-only floor: one authenticated DRF request inserting one row (BENCH_ENDPOINTS=1)."""

    @extend_schema(exclude=True)
    def post(self, request: Request) -> Response:
        if not settings.BENCH_ENDPOINTS:
            raise NotFound()
        row = BenchRow.objects.create(value=int(request.data.get("value", 0) or 0))
        return Response({"id": row.pk}, status=201)
