"""The caller's webhooks: listed, added (a session confirms its password first), deleted,
and a test event sent."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import shapes
from games.api import present
from games.api import serializers as s
from games.api.openapi import shape
from games.api.permissions import RecentAuthentication
from games.api.schema import COMMON, E404, REAUTH, err
from games.webhooks import services as hook_services

E400_DISCORD = err("invalid_discord_user_id: not 17 to 20 digits (details.field).")
E400_HOOK = err("invalid_webhook: details.field names what is wrong (url, format, events).")


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
            403: err(f"not_a_player: the game is not yours; {REAUTH}"),
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
                request_only=True,
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
        responses={204: None, 404: err("webhook_not_found."), **COMMON},
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
        responses={202: shape(shapes.WebhookTest), 404: err("webhook_not_found."), **COMMON},
        tags=["webhooks"],
        summary="Send a test event",
    )
    def post(self, request: Request, hook_id: int) -> Response:
        delivery = hook_services.webhook_test(owner=request.user, webhook_id=hook_id)
        body: shapes.WebhookTest = {"delivery": delivery}
        return Response(body, status=status.HTTP_202_ACCEPTED)


class DiscordUserView(APIView):
    """``/api/v1/me/discord/``: the Discord user ID your turns' Discord posts mention."""

    @extend_schema(
        operation_id="me_discord_get",
        responses={200: shape(shapes.DiscordUser), **COMMON},
        tags=["webhooks"],
        summary="Your Discord user ID",
    )
    def get(self, request: Request) -> Response:
        body: shapes.DiscordUser = {"discord_user_id": hook_services.discord_id_of(request.user)}
        return Response(body)

    @extend_schema(
        operation_id="me_discord_set",
        request=s.DiscordUserSerializer,
        responses={200: shape(shapes.DiscordUser), 400: E400_DISCORD, **COMMON},
        tags=["webhooks"],
        summary="Set (or clear with an empty string) your Discord user ID",
        description="A Discord webhook's post of your turn then starts with `<@ID>` and allows "
        "that one mention (`allowed_mentions.users`); nobody else is ever pinged.",
        examples=[OpenApiExample("Set", value={"discord_user_id": "80351110224678912"})],
    )
    def put(self, request: Request) -> Response:
        body = s.body_checked(s.DiscordUserSerializer, request.data)
        value = hook_services.discord_id_set(user=request.user, value=body.get("discord_user_id"))
        answer: shapes.DiscordUser = {"discord_user_id": value}
        return Response(answer)
