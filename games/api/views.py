"""The REST API, /api/v1/ (shared/API.md). Thin: validate, call a service or selector, answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import QueryDict
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import permissions, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import (
    AuthenticationFailed,
    NotFound,
    ParseError,
    PermissionDenied,
    Throttled,
    ValidationError,
)
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.profiles import profile_update
from accounts.tokens import TokenLimitReached, token_create, token_limit
from games import engine, numbers, results, selectors, services, shapes
from games.api import present
from games.api import serializers as s
from games.api.idempotency import HEADER, idempotent
from games.api.openapi import shape
from games.api.permissions import RecentAuthentication
from games.api.throttles import ScopedThrottle
from games.chat import selectors as chat_selectors
from games.chat import services as chat_services
from games.forecast import forecast
from games.models import BenchRow, Game, Move
from games.plans.services import plan_delete, plan_moves_described, plan_set, plans_of
from games.services import bots
from games.services.errors import GameNotFinished, GameNotFound, GameNotStarted, NoRecord
from games.webhooks import services as hook_services
from powergrid.plants import PLANTS

MAX_PLANT = max(PLANTS)

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission


def _err(description: str) -> OpenApiResponse:
    return OpenApiResponse(shape(shapes.Error), description=description)


E400 = _err("invalid_field / parse_error: the body is not valid.")
E401 = _err("not_authenticated / authentication_failed.")
E404 = _err("not_found: no such game.")
E429 = _err("throttled: details.retry_after seconds (also the Retry-After header).")
REAUTH = (
    "reauthentication_required: a session (not a token) must confirm its password on "
    "details.reauthenticate_url first."
)
COMMON = {401: E401, 429: E429}

IDEMPOTENCY_PARAM = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (e.g. a UUID) up to 255 characters, without control "
    "characters (400 invalid_field otherwise). A retry with the same key "
    "and body returns the first response (header `Idempotent-Replayed: true`) and changes "
    "nothing; the same key with a different body is refused with 422 idempotency_key_reused.",
)


def _game_or_404(game_id: int, *, seats: bool = True) -> Game:
    """The game, with its seats read in the same query unless ``seats`` is False (after an
    action the caller made in it; a view's own game is ``GameView.game``)."""
    game = (
        selectors.game_get_with_seats(game_id=game_id)
        if seats
        else selectors.game_get(game_id=game_id)
    )
    if game is None:
        raise GameNotFound()
    return game


class GameView(APIView):
    """A view of one game (``game_id`` in its path). Before anything else, the check that the
    caller is logged in included, it asks THE rule (``selectors.game_for``) whether the caller
    may see the game: a private game answers everyone but its players, invitees and staff
    exactly as a game that does not exist (404 ``not_found``), whatever they ask of it.
    ``self.game`` is the game with its seats, read once for the request.

    ``visible_on_error``: methods that ask the rule only when they fail (a move's POST, the
    hottest path: only a seated player's move succeeds, so success needs no check, and every
    refusal, a stale position or an authentication error included, turns into the 404 for whom
    the game is hidden)."""

    visible_on_error: tuple[str, ...] = ()
    game: Game

    def check_permissions(self, request: Request) -> None:
        if request.method not in self.visible_on_error:
            game = self.visible_game(request)
            if game is None:
                raise GameNotFound()
            self.game = game
        super().check_permissions(request)

    def visible_game(self, request: Request) -> Game | None:
        return selectors.game_for(game_id=self.kwargs["game_id"], user=request.user, seats=True)

    def finalize_response(
        self, request: Request, response: Response, *args: object, **kwargs: object
    ) -> Response:
        if (
            request.method in self.visible_on_error
            and 400 <= response.status_code < 500
            and response.status_code != 404
            and self.visible_game(request) is None
        ):
            response = Response(GameNotFound().as_body(), status=404)
        return super().finalize_response(request, response, *args, **kwargs)


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
        return 'Bearer realm="api"'  # wrong credentials are a 401, not a 403

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:
        if self.request is not None and self.request.method == "DELETE":
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        operation_id="auth_token_create",
        summary="Create an API token",
        request=s.TokenCreateSerializer,
        responses={
            200: shape(shapes.Token),
            400: E400,
            401: E401,
            403: _err(
                "permission_denied: the client's address is unknown (failed logins are "
                "counted per address), or the account holds the most API tokens allowed "
                f"({token_limit()}): revoke one first."
            ),
            429: E429,
        },
        auth=[],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.TokenCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        # allauth's adapter counts failed logins under the same keys as the web login form: a
        # name locked out there (5 failures in 5 minutes) is locked out here, and the other way.
        try:
            user = get_adapter(request._request).authenticate(
                request._request,
                username=ser.validated_data["username"],
                password=ser.validated_data["password"],
            )
        except DjangoValidationError:
            raise Throttled(
                detail="Too many failed logins for this name: wait a few minutes."
            ) from None
        if user is None or not user.is_active:
            raise AuthenticationFailed("Wrong username or password.")
        try:
            instance, token = token_create(user, name=ser.validated_data["name"])
        except TokenLimitReached as exc:
            raise PermissionDenied(str(exc)) from None
        body: shapes.Token = {"token": token, "expiry": instance.expiry}
        return Response(body)

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
    @extend_schema(responses={200: shape(shapes.Me), **COMMON}, tags=["me"])
    def get(self, request: Request) -> Response:
        return Response(present.me_json(present.account(request.user)))

    @extend_schema(
        request=s.MeSerializer,
        responses={200: shape(shapes.Me), 400: E400, **COMMON},
        tags=["me"],
        summary="Change display name, timezone, language, notifications or invitations",
    )
    def patch(self, request: Request) -> Response:
        ser = s.MeSerializer(data=request.data, partial=True, context={"user": request.user})
        ser.is_valid(raise_exception=True)
        profile_update(user=request.user, changes=ser.validated_data)
        return Response(present.me_json(present.account(request.user)))


class BotUpgradeView(MeView):
    # One way: a session from an email's link must confirm the password first.
    permission_classes = [permissions.IsAuthenticated, RecentAuthentication]

    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.Me),
            403: _err(REAUTH),
            409: _err("bot_upgrade_refused: the account has held a seat in a game."),
            **COMMON,
        },
        tags=["me"],
        summary="Turn this new account into a bot account (one way; see docs/BOTS.md)",
    )
    def post(self, request: Request) -> Response:
        s.no_body(request.data)
        bots.bot_account_upgrade(user=request.user)
        return Response(present.me_json(present.account(request.user)))


# ---------------------------------------------------------------- maps
class MapListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: shape(shapes.MapSummary)(many=True), 429: E429}, tags=["maps"])
    def get(self, request: Request) -> Response:
        return Response([selectors.map_summary(slug) for slug in engine.maps_available()])


class MapDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: shape(shapes.Map), 404: _err("not_found: no such map."), 429: E429},
        tags=["maps"],
    )
    def get(self, request: Request, slug: str) -> Response:
        if slug not in engine.maps_available():
            raise NotFound("No such map.")
        return Response(selectors.map_detail(slug))


# ---------------------------------------------------------------- games
class GamePagination(LimitOffsetPagination):
    """``limit`` (1-200, default 50) and ``offset`` (from 0): anything else is a 400
    ``invalid_field`` naming the parameter (DRF's pagination would ignore it and answer the
    first page, so a client's bug went unseen)."""

    default_limit = 50
    max_limit = 200

    def get_limit(self, request: Request) -> int:
        return min(query_int(request, "limit", self.default_limit, low=1), self.max_limit)

    def get_offset(self, request: Request) -> int:
        return query_int(request, "offset", 0, low=0)


def query_int(request: Request, name: str, default: int, *, low: int) -> int:
    """A whole number from the query string (``games.numbers``: ASCII digits, bounded), at least
    ``low``; ``default`` when the parameter is absent (given empty it is refused). Refused with
    400 ``invalid_field``."""
    value = numbers.from_query(
        request.query_params,
        name,
        low=low,
        high=numbers.INT32_MAX,
        default=default,
        empty_is_absent=False,
    )
    return default if value is None else value


_YES = ("1", "true", "yes", "on")
_NO = ("", "0", "false", "no", "off")


def _flag(params: QueryDict, name: str) -> bool:
    """A boolean query parameter (the schema's ``boolean``: generators send ``true``/``false``).
    Anything else (``?mine=maybe``) is refused with 400 ``invalid_field``, as a number's is,
    instead of being read as false: a misspelt filter must not list other games silently."""
    value = (params.get(name) or "").lower()
    if value not in _YES + _NO:
        raise ValidationError({name: ["Must be true or false."]})
    return value in _YES


class GameListView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=Game.Status.values, description="Filter."),
            OpenApiParameter("mine", bool, description="Only games where the caller has a seat."),
            OpenApiParameter(
                "limit", int, description="Page size (1-200, default 50; more counts as 200)."
            ),
            OpenApiParameter("offset", int, description="Start of the page (from 0)."),
        ],
        responses={200: shape(shapes.GamePage), 400: E400, **COMMON},
        tags=["games"],
        operation_id="games_list",
        summary="List games, newest first",
    )
    def get(self, request: Request) -> Response:
        st = request.query_params.get("status")
        if st and st not in Game.Status.values:
            raise ValidationError({"status": [f"Must be one of {', '.join(Game.Status.values)}."]})
        qs = selectors.game_list(
            user=request.user, status=st, mine=_flag(request.query_params, "mine")
        )
        paginator = GamePagination()
        page = paginator.paginate_queryset(qs, request, view=self) or []
        data = [_detail(g, request.user) for g in page]
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=s.GameCreateSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            201: shape(shapes.Game),
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

        def do() -> tuple[int, shapes.Body]:
            game = services.game_create(
                creator=request.user,
                map=v["map"],
                max_players=v["max_players"],
                areas=v.get("areas"),
                options=dict(v.get("options") or {}),
            )
            return 201, _detail(game, request.user)

        return idempotent(request, do)


def _detail(game: Game, user: selectors.Reader) -> shapes.Game:
    if hasattr(game, "_prefetched_objects_cache") and "seats" in game._prefetched_objects_cache:
        game.seats_read = sorted(game.seats.all(), key=lambda x: x.seat)
    return selectors.game_detail_for(game, user)


class GameDetailView(GameView):
    @extend_schema(
        operation_id="games_retrieve",
        responses={200: shape(shapes.Game), 404: E404, **COMMON},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(_detail(self.game, request.user))


class _LobbyView(GameView):
    action_name = ""

    def run(self, game_id: int, user: selectors.Reader) -> Game | None:
        raise NotImplementedError

    def post(self, request: Request, game_id: int) -> Response:
        s.no_body(request.data)  # leave, start: no body (join's own post reads its code)
        game = self.run(game_id, request.user)
        if game is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        game = _game_or_404(game.pk)
        return Response(_detail(game, request.user))


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
            403: _err(
                "not_invited (an invitee or staff member of a private game without the code) / "
                "removed_by_creator / below_reliability."
            ),
            404: _err("not_found: no such game, or a private game and not its code."),
            409: _err("game_already_started / game_full / already_joined."),
            **COMMON,
        },
        tags=["lobby"],
        summary="Take a seat in an open game (a private one with its code)",
    )
    def post(self, request: Request, game_id: int) -> Response:
        code = str(s.body_checked(s.JoinSerializer, request.data).get("code") or "")
        seat = services.game_join(game_id=game_id, user=request.user, code=code)
        return Response(_detail(_game_or_404(seat.game_id), request.user))


class GameInvitationsView(GameView):
    @extend_schema(
        request=s.InvitationSerializer,
        responses={
            201: shape(shapes.Invitation),
            400: _err("invalid_field: no such username."),
            403: _err(
                "not_creator / invitation_refused (the player takes no invitations from you)."
            ),
            404: E404,
            409: _err("game_already_started / already_joined."),
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

    def run(self, game_id: int, user: selectors.Reader) -> Game | None:
        return services.game_leave(game_id=game_id, user=user)


class GameStartView(_LobbyView):
    @extend_schema(
        request=None,
        responses={
            200: shape(shapes.Game),
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

    def run(self, game_id: int, user: selectors.Reader) -> Game | None:
        return services.game_start(game_id=game_id, user=user)


class GameStateView(GameView):
    @extend_schema(
        responses={
            200: shape(shapes.State),
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
        game = self.game
        if game.status == Game.Status.OPEN:
            raise GameNotStarted()
        return Response(selectors.game_state_for(game, request.user))


class GameRecordView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_record",
        responses={
            200: shape(shapes.GameRecord),
            404: E404,
            409: _err(
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


class GameStateAtView(GameView):
    @extend_schema(
        operation_id="games_state_at",
        responses={
            200: shape(shapes.State),
            404: _err("not_found: no such game, or no move `seq` yet (details.seq: the game's)."),
            409: _err("game_not_started."),
            **COMMON,
        },
        tags=["play"],
        summary="The state after move `seq`, as the caller's seat could see it then",
        description="The engine's view of the position after `seq` moves (take-backs in the log "
        "applied), for the caller's seat (a spectator's for anyone else): nothing that was hidden "
        "then is shown now (other players' money stays null, the deck and the seed stay secret). "
        "`legal` is empty and `deadline` null; `seq` is the one asked for (0: the set-up).",
    )
    def get(self, request: Request, game_id: int, seq: int) -> Response:
        game = self.game
        if game.status == Game.Status.OPEN:
            raise GameNotStarted()
        if seq > game.seq:
            raise GameNotFound(
                f"No move {seq} yet: the game is at move {game.seq}.", details={"seq": game.seq}
            )
        return Response(selectors.game_history_state_for(game, request.user, seq))


class GameResultView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_result",
        responses={
            200: shape(shapes.GameResult),
            404: E404,
            409: _err("game_not_finished: money is secret until the end."),
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


#: The most cities one quote prices (a player builds in far fewer in one turn).
QUOTE_MAX_CITIES = selectors.QUOTE_MAX_CITIES


class GameQuoteView(GameView):
    @extend_schema(
        operation_id="games_build_quote",
        parameters=[
            OpenApiParameter(
                "cities",
                str,
                many=True,
                explode=True,
                description=f"City slugs, repeated (`?cities=essen&cities=duisburg`), at most "
                f"{QUOTE_MAX_CITIES}; none: cost 0.",
            )
        ],
        responses={
            200: shape(shapes.BuildQuote),
            400: _err(
                "The engine's refusal of a city (city_not_in_play, city_full, already_in_city, "
                f"city_unreachable, invalid_field), or invalid_field: more than "
                f"{QUOTE_MAX_CITIES} cities."
            ),
            403: _err("not_a_player: the caller holds no seat in this game."),
            404: E404,
            409: _err("game_not_running: only a game under way takes a build."),
            **COMMON,
        },
        tags=["play"],
        summary="What building in several cities at once would cost the caller",
        description="The cheapest order the rules allow for all of them together (build spaces "
        "plus the cheapest connections, each city's cost depending on the others), as the build "
        "form's total; `legal`'s `build` gives each city's cost alone. The same answer whether "
        "the caller uses a token or the site's session.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        cities = [c for c in request.query_params.getlist("cities") if c]
        return Response(selectors.game_build_quote(self.game, request.user, cities))


class GameMovesView(GameView):
    visible_on_error = ("POST",)

    @extend_schema(
        operation_id="games_moves_list",
        parameters=[
            OpenApiParameter("since", int, description="Only moves with seq > since (default 0).")
        ],
        responses={200: shape(shapes.Move)(many=True), 400: E400, 404: E404, **COMMON},
        tags=["play"],
        summary="The move log after seq `since`",
    )
    def get(self, request: Request, game_id: int) -> Response:
        since = query_int(request, "since", 0, low=0)
        return Response(selectors.move_list_public(game=self.game, since=since))

    @extend_schema(
        operation_id="games_moves_create",
        request=s.MoveSubmitSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            201: shape(shapes.State),
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

        def do() -> tuple[int, shapes.Body]:
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
        body = request.data if isinstance(request.data, dict) else {}
        value = numbers.from_json(
            body.get("value", 0), field="value", low=0, high=numbers.INT32_MAX
        )
        row = BenchRow.objects.create(value=value)
        return Response({"id": row.pk}, status=201)


# ---------------------------------------------------------------- plans
E400_PLAN = _err("invalid_plan: details.field names what is wrong.")
E403_PLAYER = _err("not_a_player: plans are for the game's players.")


class GamePlansView(GameView):
    @extend_schema(
        operation_id="games_plans_list",
        responses={200: shape(shapes.PlanList), 403: E403_PLAYER, 404: E404, **COMMON},
        tags=["plans"],
        summary="Your plans in this game (never anyone else's)",
        description="Plans answer for you when your turn comes, with ordinary moves (source "
        "`plan` in the move log, which never shows the plan). A plan that has acted, or can no "
        "longer act (its plant was bought, its round is over), is gone from this list.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game
        seat = selectors.seat_of(game, request.user)
        if seat is None:
            raise services.NotAPlayer()
        body: shapes.PlanList = {"plans": plans_of(game=game, seat=seat.seat)}
        return Response(body)

    @extend_schema(
        operation_id="games_plans_set",
        request=s.PlanSerializer,
        responses={
            200: shape(shapes.PlanSet),
            400: E400_PLAN,
            403: E403_PLAYER,
            404: E404,
            409: _err("game_not_running."),
            **COMMON,
        },
        tags=["plans"],
        summary="Give or replace a plan",
        description="One plan of each kind (a proxy bid per plant). If it applies now (it is "
        "your turn and it holds), its move is made before the answer: `moves_made` counts them "
        "and `acted` says what yours did, in the move log's words.",
        examples=[
            OpenApiExample("Proxy bid", value={"kind": "proxy_bid", "plant": 13, "max": 20}),
            OpenApiExample("Auto-pass", value={"kind": "auto_pass"}),
            OpenApiExample(
                "Buy order", value={"kind": "buy", "amounts": {"coal": 2}, "max_price": 4}
            ),
            OpenApiExample(
                "Build order",
                value={"kind": "build", "cities": ["essen", "duisburg"], "max_total": 40},
            ),
        ],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data, made, seq = plan_set(game_id=game_id, user=request.user, body=request.data)
        seat = selectors.seat_of(self.game, request.user)
        acted = (
            plan_moves_described(game_id=game_id, seat=seat.seat, after=seq - made, upto=seq)
            if made and seat is not None
            else []
        )
        body: shapes.PlanSet = {"plan": data, "moves_made": made, "seq": seq, "acted": acted}
        return Response(body)


class GamePlanDetailView(GameView):
    @extend_schema(
        operation_id="games_plans_delete",
        parameters=[
            OpenApiParameter("plant", int, description="proxy_bid: which plant's maximum.")
        ],
        responses={
            204: None,
            400: _err("invalid_field: `plant` is not a whole number (details.field)."),
            403: E403_PLAYER,
            404: _err("not_found / plan_not_found: no such plan (one that acted is gone)."),
            409: _err("game_not_running: the game is over (its plans are gone with it)."),
            **COMMON,
        },
        tags=["plans"],
        summary="Withdraw a plan",
    )
    def delete(self, request: Request, game_id: int, kind: str) -> Response:
        plant = numbers.from_query(
            request.query_params, "plant", low=1, high=MAX_PLANT, empty_is_absent=False
        )
        plan_delete(game_id=game_id, user=request.user, kind=kind, plant=plant)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameForecastView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_forecast",
        responses={
            200: shape(shapes.Forecast),
            404: E404,
            409: _err("game_not_running: only a game under way has a forecast."),
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


# ---------------------------------------------------------------- webhooks
E400_HOOK = _err("invalid_webhook: details.field names what is wrong (url, format, events).")


class WebhookListView(APIView):
    # A webhook keeps posting after the session ends: a session must confirm the password first.
    permission_classes = [permissions.IsAuthenticated, RecentAuthentication]

    @extend_schema(
        operation_id="webhooks_list",
        responses={200: shape(shapes.Webhook)(many=True), **COMMON},
        tags=["webhooks"],
        summary="Your webhooks",
    )
    def get(self, request: Request) -> Response:
        return Response([present.webhook_json(h) for h in hook_services.webhooks_of(request.user)])

    @extend_schema(
        operation_id="webhooks_create",
        request=s.WebhookSerializer,
        responses={
            201: shape(shapes.Webhook),
            400: E400_HOOK,
            403: _err(f"not_a_player: the game is not yours; {REAUTH}"),
            404: E404,
            **COMMON,
        },
        tags=["webhooks"],
        summary="Add a webhook",
        description="Events are posted after each move commits, retried with backoff until the "
        "receiver answers 2xx; after 8 failures in a row the webhook is turned off and you get an "
        "email. Every post has X-PowerGrid-Delivery (the same id if a post is repeated) and "
        "X-PowerGrid-Event; the generic format is signed (see `secret`).",
        examples=[
            OpenApiExample(
                "Discord",
                value={"url": "https://discord.com/api/webhooks/1/x", "format": "discord"},
            )
        ],
    )
    def post(self, request: Request) -> Response:
        body = s.body_checked(s.WebhookSerializer, request.data)
        hook = hook_services.webhook_create(
            owner=request.user,
            url=body.get("url"),
            format=body.get("format", "generic"),
            events=body.get("events"),
            game_id=body.get("game"),
        )
        return Response(present.webhook_json(hook), status=status.HTTP_201_CREATED)


class WebhookDetailView(APIView):
    @extend_schema(
        operation_id="webhooks_delete",
        responses={204: None, 404: _err("webhook_not_found."), **COMMON},
        tags=["webhooks"],
        summary="Delete a webhook",
    )
    def delete(self, request: Request, hook_id: int) -> Response:
        hook_services.webhook_delete(owner=request.user, webhook_id=hook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookTestView(APIView):
    @extend_schema(
        operation_id="webhooks_test",
        request=None,
        responses={202: shape(shapes.WebhookTest), 404: _err("webhook_not_found."), **COMMON},
        tags=["webhooks"],
        summary="Send a test event",
    )
    def post(self, request: Request, hook_id: int) -> Response:
        s.no_body(request.data)
        delivery = hook_services.webhook_test(owner=request.user, webhook_id=hook_id)
        body: shapes.WebhookTest = {"delivery": delivery}
        return Response(body, status=status.HTTP_202_ACCEPTED)


# ---------------------------------------------------------------- chat
class GameChatView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_chat_list",
        parameters=[
            OpenApiParameter("before", int, description="Only messages older than this id."),
            OpenApiParameter("limit", int, description="At most this many (default 50, max 200)."),
        ],
        responses={
            200: shape(shapes.ChatMessage)(many=True),
            400: E400,
            403: E403_PLAYER,
            404: E404,
            429: E429,
        },
        tags=["chat"],
        summary="The game's chat, newest last (players; everyone if the game allows)",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game
        params = request.query_params
        # ``before`` 0 is no bound; a ``limit`` over 200 counts as 200 (the selector's cap).
        before = numbers.from_query(
            params, "before", low=0, high=numbers.ID_MAX, empty_is_absent=False
        )
        limit = numbers.from_query(
            params, "limit", low=1, high=numbers.INT32_MAX, default=50, empty_is_absent=False
        )
        rows = chat_selectors.messages_for(
            game, request.user, before=before or None, limit=limit or 50
        )
        seats = {st.user_id: st.seat for st in selectors.game_seats(game)}
        return Response([present.chat_json(m, seats) for m in rows])

    @extend_schema(
        operation_id="games_chat_post",
        request=s.ChatTextSerializer,
        responses={
            201: shape(shapes.ChatMessage),
            400: _err(
                "invalid_message: empty, longer than 1000 characters or with a control character."
            ),
            403: E403_PLAYER,
            404: E404,
            429: E429,
        },
        tags=["chat"],
        summary="Post a message (players only; 10 a minute)",
    )
    def post(self, request: Request, game_id: int) -> Response:
        if not request.user.is_authenticated:
            raise services.NotAPlayer()
        body = s.body_checked(s.ChatTextSerializer, request.data)
        m = chat_services.chat_post(game_id=game_id, user=request.user, text=body.get("text"))
        seats = {st.user_id: st.seat for st in selectors.game_seats(self.game)}
        return Response(present.chat_json(m, seats), status=status.HTTP_201_CREATED)


class GameChatMessageView(GameView):
    @extend_schema(
        operation_id="games_chat_edit",
        request=s.ChatEditSerializer,
        responses={
            200: shape(shapes.ChatMessage),
            400: _err("invalid_message / edit_window_over."),
            404: _err("message_not_found."),
            **COMMON,
        },
        tags=["chat"],
        summary="Change one's message (within 10 minutes)",
    )
    def patch(self, request: Request, game_id: int, message_id: int) -> Response:
        body = s.body_checked(s.ChatEditSerializer, request.data)
        m = chat_services.chat_edit(
            game_id=game_id, message_id=message_id, user=request.user, text=body.get("text")
        )
        # The same seat as the list and the post answer, not null: a client replaces its copy.
        seats = {st.user_id: st.seat for st in selectors.game_seats(self.game)}
        return Response(present.chat_json(m, seats))


class GameChatReportView(GameView):
    @extend_schema(
        operation_id="games_chat_report",
        request=None,
        responses={204: None, 404: _err("message_not_found."), **COMMON},
        tags=["chat"],
        summary="Report a message to the moderators",
    )
    def post(self, request: Request, game_id: int, message_id: int) -> Response:
        s.no_body(request.data)
        chat_services.chat_report(game_id=game_id, message_id=message_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
