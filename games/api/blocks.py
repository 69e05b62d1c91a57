"""``/api/v1/me/blocks/``: the players you blocked (``accounts.blocks``): listed, added,
lifted. A block keeps the two of you apart: no joining a game the other sits in, no
invitation, no chat message to a blocker, no tournament table together."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import blocks
from accounts.models import Block
from games import shapes
from games.api import serializers as s
from games.api.openapi import shape
from games.api.schema import COMMON, err
from games.services.errors import ServiceError

T = TypeVar("T")

E400_BLOCK = err("invalid_block: no username, your own, or details.max blocks reached.")
E404_BLOCK = err("user_not_found: no player has that username (or you have not blocked them).")


def block_json(b: Block) -> shapes.BlockedPlayer:
    profile = getattr(b.blocked, "profile", None)
    return {
        "username": b.blocked.get_username(),
        "name": profile.name if profile is not None else b.blocked.get_username(),
        "since": b.created_at,
    }


def _service(call: Callable[[], T]) -> T:
    try:
        return call()
    except blocks.BlockError as exc:
        raise ServiceError(
            exc.message, code=exc.code, status=exc.status, details=exc.details
        ) from None


class BlockListView(APIView):
    @extend_schema(
        operation_id="me_blocks_list",
        responses={200: shape(shapes.BlockedPlayer)(many=True), **COMMON},
        tags=["me"],
        summary="The players you blocked",
    )
    def get(self, request: Request) -> Response:
        return Response([block_json(b) for b in blocks.blocks_of(request.user)])

    @extend_schema(
        operation_id="me_blocks_create",
        request=s.BlockSerializer,
        responses={
            201: shape(shapes.BlockedPlayer),
            200: shape(shapes.BlockedPlayer),
            400: E400_BLOCK,
            404: E404_BLOCK,
            **COMMON,
        },
        tags=["me"],
        summary="Block a player (200 if you had already)",
        examples=[OpenApiExample("Block", value={"username": "griefer"}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        body = s.body_checked(s.BlockSerializer, request.data)
        row, made = _service(lambda: blocks.block(user=request.user, username=body.get("username")))
        row = Block.objects.select_related("blocked__profile").get(pk=row.pk)
        return Response(block_json(row), status=status.HTTP_201_CREATED if made else 200)


class BlockDetailView(APIView):
    @extend_schema(
        operation_id="me_blocks_delete",
        responses={204: None, 404: E404_BLOCK, **COMMON},
        tags=["me"],
        summary="Lift your block of a player",
    )
    def delete(self, request: Request, username: str) -> Response:
        _service(lambda: blocks.unblock(user=request.user, username=username))
        return Response(status=status.HTTP_204_NO_CONTENT)
