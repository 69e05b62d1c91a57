"""The API of take-backs and practice games (docs/API.md, "Take-backs" and "Practice games").
Every view is a ``GameView``: a game the caller may not see answers 404 first. Thin: the
services (``games.services.takeback``, ``games.services.practice``) do the work; the request
bodies are declared here, the answers in ``games.shapes``.

    GET    /api/v1/games/{id}/takeback/                          what you may take back now
    POST   /api/v1/games/{id}/takeback/                          take back your move at once
    POST   /api/v1/games/{id}/takeback/requests/                 ask the others to agree
    GET    /api/v1/games/{id}/takeback/requests/{rid}/           a request as it stands
    DELETE /api/v1/games/{id}/takeback/requests/{rid}/           withdraw your request
    POST   /api/v1/games/{id}/takeback/requests/{rid}/accept/    agree
    POST   /api/v1/games/{id}/takeback/requests/{rid}/decline/   refuse
    POST   /api/v1/games/{id}/practice/                          a practice game from here
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, shapes, takebacks
from games.api.base import GameView
from games.api.idempotency import idempotent
from games.api.openapi import shape
from games.api.schema import E401, E404, E429, err
from games.api.serializers import (
    RequestSerializer,
    StrictBooleanField,
    StrictChoiceField,
    WholeNumberField,
)
from games.models import Game, Move, TakebackRequest
from games.selectors.detail import game_detail_for
from games.services import practice
from games.services import takeback as service
from games.services.errors import GameNotFound, NotAPlayer, TakebackRequestNotFound
from powergrid.levels import DEFAULT_LEVEL, LEVEL_NAMES

COMMON = {401: E401, 404: E404, 429: E429}
E403 = err("not_a_player: the caller holds no seat in this game.")
E409_STATE = "stale_state: expected_seq is behind (details.seq); "
E409_OFF = (
    "game_over (the result stands), game_not_started, takebacks_off (a rated game whose creator "
    "did not allow them), nothing_to_take_back, takeback_too_far (details.max_moves)"
)


# ---------------------------------------------------------------- requests (answers: games.shapes)
class TakebackBodySerializer(RequestSerializer):
    expected_seq = WholeNumberField(
        min_value=0, help_text="The game's seq as you last saw it: nothing moved since."
    )


class PracticeBodySerializer(RequestSerializer):
    seq = WholeNumberField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="A finished game: the move to practise from (the board after it). A game "
        "under way: leave it out (its position now).",
    )
    seat = WholeNumberField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="A finished game: the seat to play (default: yours, else 0). A game under way: "
        "yours.",
    )
    emails = StrictBooleanField(
        default=False, help_text="Email me my turns in the practice game (off by default)."
    )
    level = StrictChoiceField(
        choices=list(LEVEL_NAMES),
        default=DEFAULT_LEVEL,
        help_text="The level of the bots in the other seats, weakest first: `beginner`, "
        "`heuristic` (the default), `advanced`, `expert` (docs/BOTS.md).",
    )


# ---------------------------------------------------------------- helpers
def _game(game_id: int) -> Game:
    game = selectors.game_get_with_seats(game_id=game_id)
    if game is None:
        raise GameNotFound()
    return game


def _entry(move: Move) -> shapes.TakebackEntry:
    return {
        "seq": move.seq,
        "seat": move.seat,
        "cancels": list(move.action.get("cancels", [])),
        "accepted_by": list(move.action.get("accepted_by", [])),
    }


def _source(request: Request) -> str:
    return Move.Source.WEB if request.auth is None else Move.Source.API


def _expected_seq(request: Request) -> int:
    ser = TakebackBodySerializer(data=request.data)
    ser.is_valid(raise_exception=True)
    return int(ser.validated_data["expected_seq"])


def _done(result: service.TakebackResult, user: selectors.Reader) -> shapes.TakebackDone:
    return {
        "takeback": _entry(result.move),
        "state": selectors.game_state_for(result.game, user, state=result.state),
    }


def _answer(answer: service.Answer, user: selectors.Reader) -> shapes.TakebackAnswer:
    game = answer.result.game if answer.result else _game(answer.request.game_id)
    out: shapes.TakebackAnswer = {
        "request": takebacks.request_json(answer.request, game),
        "takeback": _entry(answer.result.move) if answer.result else None,
    }
    if answer.result:
        out["state"] = selectors.game_state_for(game, user, state=answer.result.state)
    return out


# ---------------------------------------------------------------- views
class TakebackView(GameView):
    @extend_schema(
        operation_id="games_takeback_offer",
        responses={200: shape(shapes.TakebackOffer), 403: E403, **COMMON},
        tags=["takeback"],
        summary="What you may take back now, and the request waiting for answers",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game
        offer = takebacks.offer_for(game, request.user)
        if offer is None:
            raise NotAPlayer()
        return Response(offer.as_json(game))

    @extend_schema(
        operation_id="games_takeback_now",
        request=TakebackBodySerializer,
        responses={
            201: shape(shapes.TakebackDone),
            400: err("invalid_field: expected_seq is missing or not a number."),
            403: E403,
            409: err(
                E409_STATE + E409_OFF + ", takeback_needs_agreement (details.reason: "
                "others_moved, plant_drawn, sealed_bids_opened; ask instead), "
                "takeback_limit_reached (details.limit)."
            ),
            422: err("idempotency_key_reused."),
            **COMMON,
        },
        examples=[
            OpenApiExample("Take back my move", value={"expected_seq": 42}, request_only=True)
        ],
        tags=["takeback"],
        summary="Take back your own last move at once (nobody else moved, nothing revealed)",
    )
    def post(self, request: Request, game_id: int) -> Response:
        expected = _expected_seq(request)

        def do() -> tuple[int, shapes.Body]:
            result = service.takeback_now(
                game_id=game_id,
                user=request.user,
                expected_seq=expected,
                source=_source(request),
            )
            return 201, _done(result, request.user)

        return idempotent(request, do)


class TakebackRequestsView(GameView):
    @extend_schema(
        operation_id="games_takeback_ask",
        request=TakebackBodySerializer,
        responses={
            201: shape(shapes.TakebackAnswer),
            400: err("invalid_field: expected_seq is missing or not a number."),
            403: E403,
            409: err(E409_STATE + E409_OFF + ", takeback_request_open."),
            422: err("idempotency_key_reused."),
            **COMMON,
        },
        examples=[OpenApiExample("Ask", value={"expected_seq": 43}, request_only=True)],
        tags=["takeback"],
        summary="Ask every other player to agree to take back your moves",
        description="Every other player is asked (page, email with one-tap answers, webhooks "
        "`takeback_asked`, the stream); the take-back is made when the last one accepts, if "
        "nothing moved meanwhile and before `deadline`. The server's bots accept at once: when "
        "only bots are asked, it is made at once (`takeback` is set).",
    )
    def post(self, request: Request, game_id: int) -> Response:
        expected = _expected_seq(request)

        def do() -> tuple[int, shapes.Body]:
            answer = service.takeback_ask(
                game_id=game_id,
                user=request.user,
                expected_seq=expected,
                source=_source(request),
            )
            return 201, _answer(answer, request.user)

        return idempotent(request, do)


def _request_of(game: Game, request_id: int, user: selectors.Reader) -> TakebackRequest:
    if selectors.seat_of(game, user) is None:
        raise NotAPlayer()
    req = TakebackRequest.objects.filter(game=game, pk=request_id).first()
    if req is None:
        raise TakebackRequestNotFound()
    return req


class TakebackRequestView(GameView):
    @extend_schema(
        operation_id="games_takeback_request",
        responses={
            200: shape(shapes.TakebackRequest),
            403: E403,
            404: err("not_found / takeback_request_not_found."),
            401: COMMON[401],
            429: COMMON[429],
        },
        tags=["takeback"],
        summary="A take-back request as it stands",
    )
    def get(self, request: Request, game_id: int, request_id: int) -> Response:
        game = self.game
        return Response(takebacks.request_json(_request_of(game, request_id, request.user), game))

    @extend_schema(
        operation_id="games_takeback_withdraw",
        responses={
            204: None,
            403: err("not_a_player / not_yours: only the player who asked."),
            404: err("not_found / takeback_request_not_found."),
            409: err("takeback_request_closed / takeback_moved_on / takeback_expired."),
            401: COMMON[401],
            429: COMMON[429],
        },
        tags=["takeback"],
        summary="Withdraw your request",
    )
    def delete(self, request: Request, game_id: int, request_id: int) -> Response:
        service.takeback_withdraw(game_id=game_id, request_id=request_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class _AnswerView(GameView):
    accept = True

    def post(self, request: Request, game_id: int, request_id: int) -> Response:
        answer = service.takeback_answer(
            game_id=game_id,
            request_id=request_id,
            user=request.user,
            accept=self.accept,
            source=_source(request),
        )
        return Response(_answer(answer, request.user))


_ANSWER_ERRORS = {
    403: err("not_a_player / not_asked: the player who asked cannot answer."),
    404: err("not_found / takeback_request_not_found."),
    409: err(
        "takeback_moved_on (a move was made since the request: it is void), takeback_expired "
        "(its deadline passed), takeback_request_closed, game_over, takebacks_off."
    ),
    401: COMMON[401],
    429: COMMON[429],
}


class TakebackAcceptView(_AnswerView):
    accept = True

    @extend_schema(
        operation_id="games_takeback_accept",
        request=None,
        responses={200: shape(shapes.TakebackAnswer), **_ANSWER_ERRORS},
        tags=["takeback"],
        summary="Agree to the request (the last acceptance makes the take-back)",
    )
    def post(self, request: Request, game_id: int, request_id: int) -> Response:
        return super().post(request, game_id, request_id)


class TakebackDeclineView(_AnswerView):
    accept = False

    @extend_schema(
        operation_id="games_takeback_decline",
        request=None,
        responses={200: shape(shapes.TakebackAnswer), **_ANSWER_ERRORS},
        tags=["takeback"],
        summary="Refuse the request (it is closed; the player who asked is told)",
    )
    def post(self, request: Request, game_id: int, request_id: int) -> Response:
        return super().post(request, game_id, request_id)


class PracticeView(GameView):
    @extend_schema(
        operation_id="games_practice_create",
        request=PracticeBodySerializer,
        responses={
            201: shape(shapes.Game),
            400: err("invalid_field: seq or seat is not a number."),
            409: err(
                "practice_refused (details.why: open, seq, seat, game_end, not_a_player, "
                "not_current, not_your_seat, sealed_auction)."
            ),
            **COMMON,
        },
        examples=[
            OpenApiExample(
                "From a finished game, after move 120, in seat 2",
                value={"seq": 120, "seat": 2},
                request_only=True,
            ),
            OpenApiExample("From my game under way, now", value={}, request_only=True),
            OpenApiExample(
                "Against the strongest bots", value={"level": "expert"}, request_only=True
            ),
        ],
        tags=["practice"],
        summary="A practice game against the bots from this game's position",
        description="A finished game: the exact position after move `seq`, in the seat you "
        "choose. Your game under way: its position now in your seat, without what you do not "
        "know (the unseen cards dealt again with a new seed, every other player's money the "
        "account the public move log gives, others' sealed bids withdrawn). The new game is an "
        "ordinary one against the server's bots of `level` (the heuristic bot by default): "
        "unrated, unlisted, no emails unless `emails`, deleted 30 days after it was made. At "
        "most 30 a player an hour (the server's `PRACTICE_GAMES_PER_HOUR`): 429 `throttled` "
        "with `details.retry_after` beyond.",
    )
    def post(self, request: Request, game_id: int) -> Response:
        ser = PracticeBodySerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        v = ser.validated_data
        game = practice.practice_create(
            user=request.user,
            game_id=game_id,
            seq=v.get("seq"),
            seat=v.get("seat"),
            emails=bool(v.get("emails")),
            level=v.get("level") or DEFAULT_LEVEL,
        )
        fresh = _game(game.pk)
        return Response(game_detail_for(fresh, request.user), status=status.HTTP_201_CREATED)
