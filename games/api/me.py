"""``/api/v1/me/``: the caller's account (read, change) and the one-way upgrade to a bot
account. The rest of the account (calendar, vacation, tokens): ``games.api.account``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.profiles import profile_update
from games import shapes
from games.api import present
from games.api import serializers as s
from games.api.openapi import shape
from games.api.permissions import RecentAuthentication
from games.api.schema import COMMON, E400, REAUTH, err
from games.services import bots


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
            403: err(REAUTH),
            409: err("bot_upgrade_refused: the account has held a seat in a game."),
            **COMMON,
        },
        tags=["me"],
        summary="Turn this new account into a bot account (one way; see docs/BOTS.md)",
    )
    def post(self, request: Request) -> Response:
        bots.bot_account_upgrade(user=request.user)
        return Response(present.me_json(present.account(request.user)))
