"""Web Push from the API (and the pages' script, which calls it with the session and its CSRF
token): the site's VAPID key, your devices (push subscriptions) added, listed, switched on or
off for turn notices, removed. The work is ``accounts.push``'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlsplit

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import push as devices
from accounts.models import PushSubscription
from games import shapes
from games.api import serializers as s
from games.api.openapi import shape
from games.api.schema import COMMON, err
from games.services.errors import ServiceError

T = TypeVar("T")

E400_PUSH = err(
    "invalid_subscription: details.field names what is wrong (endpoint: not a browser push "
    "service's https URL; keys.p256dh, keys.auth: not base64url keys; name; turns)."
)
E404_PUSH = err("subscription_not_found: no device of yours has that id.")
E409_PUSH = err(
    "push_unavailable: the server has no VAPID key (Web Push is off: GET /api/v1/push/key/ "
    "answers an empty key). A subscription is checked first (400)."
)


def device_json(d: PushSubscription) -> shapes.PushDevice:
    return {
        "id": d.pk,
        "name": d.label,
        "service": urlsplit(d.endpoint).hostname or "",
        "turns": d.turns,
        "created": d.created_at,
        "last_sent": d.last_sent_at,
    }


def _service(call: Callable[[], T]) -> T:
    """``accounts.push``'s refusals as the API's errors (accounts knows nothing of the API)."""
    try:
        return call()
    except devices.PushError as exc:
        raise ServiceError(
            exc.message, code=exc.code, status=exc.status, details=exc.details
        ) from None


class PushKeyView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="push_key",
        responses={200: shape(shapes.PushKey)},
        tags=["push"],
        summary="The server's VAPID public key (for pushManager.subscribe)",
    )
    def get(self, request: Request) -> Response:
        body: shapes.PushKey = {"public_key": devices.public_key()}
        return Response(body)


class PushDeviceListView(APIView):
    @extend_schema(
        operation_id="push_devices_list",
        responses={200: shape(shapes.PushDevice)(many=True), **COMMON},
        tags=["push"],
        summary="Your devices that take push notices",
    )
    def get(self, request: Request) -> Response:
        return Response([device_json(d) for d in devices.devices(request.user)])

    @extend_schema(
        operation_id="push_devices_create",
        request=s.PushSubscribeSerializer,
        responses={
            201: shape(shapes.PushDevice),
            200: shape(shapes.PushDevice),
            400: E400_PUSH,
            409: E409_PUSH,
            **COMMON,
        },
        tags=["push"],
        summary="Add this browser (its PushSubscription.toJSON()); 200 if it was known",
        description="A turn notice is then sent to it each time the game waits for you (paced "
        "as turn emails are: none while you have the game's page open). The notice says only "
        '`{"title", "body": "It is your turn in Power Grid game #N.", "url", "tag", "game"}`. '
        "A subscription the push service reports gone (404, 410) is removed.",
        examples=[
            OpenApiExample(
                "A browser's subscription",
                value={
                    "endpoint": "https://fcm.googleapis.com/fcm/send/dZ3...",
                    "keys": {"p256dh": "BNc...", "auth": "tBH..."},
                    "name": "Phone",
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        body = s.body_checked(s.PushSubscribeSerializer, request.data)
        row, created = _service(
            lambda: devices.subscribe(
                user=request.user,
                endpoint=body.get("endpoint"),
                keys=body.get("keys"),
                label=body.get("name"),
                turns=body.get("turns"),
            )
        )
        return Response(
            device_json(row), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class PushDeviceDetailView(APIView):
    @extend_schema(
        operation_id="push_devices_update",
        request=s.PushDeviceSerializer,
        responses={200: shape(shapes.PushDevice), 400: E400_PUSH, 404: E404_PUSH, **COMMON},
        tags=["push"],
        summary="Turn notices on this device, or not",
        examples=[OpenApiExample("Off", value={"turns": False}, request_only=True)],
    )
    def patch(self, request: Request, device_id: int) -> Response:
        body = s.body_checked(s.PushDeviceSerializer, request.data)
        row = _service(
            lambda: devices.device_set(
                user=request.user, device_id=device_id, turns=body.get("turns")
            )
        )
        return Response(device_json(row))

    @extend_schema(
        operation_id="push_devices_delete",
        responses={204: None, 404: E404_PUSH, **COMMON},
        tags=["push"],
        summary="Remove a device",
    )
    def delete(self, request: Request, device_id: int) -> Response:
        _service(lambda: devices.unsubscribe(user=request.user, device_id=device_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
