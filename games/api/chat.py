"""A game's chat: read (players; everyone if the game allows), posted to, a message edited
within its window or reported to the moderators."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response

from games import numbers, selectors, services, shapes
from games.api import present
from games.api import serializers as s
from games.api.base import GameView
from games.api.openapi import shape
from games.api.schema import COMMON, E400, E403_PLAYER, E404, E429, err, int_query
from games.chat import selectors as chat_selectors
from games.chat import services as chat_services


class GameChatView(GameView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_chat_list",
        parameters=[
            int_query(
                "before",
                "Only messages older than this id (0: no bound).",
                low=0,
                high=numbers.ID_MAX,
            ),
            int_query(
                "limit", "At most this many (default 50; more than 200 counts as 200).", low=1
            ),
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
            400: err(
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
            400: err("invalid_message / edit_window_over."),
            404: err("message_not_found."),
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
        responses={204: None, 404: err("message_not_found."), **COMMON},
        tags=["chat"],
        summary="Report a message to the moderators",
    )
    def post(self, request: Request, game_id: int, message_id: int) -> Response:
        chat_services.chat_report(game_id=game_id, message_id=message_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
