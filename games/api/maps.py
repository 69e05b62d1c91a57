"""The maps a game can be played on: their list and each one's cities and connections."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import engine, shapes
from games.api.openapi import shape
from games.api.schema import E429, err
from games.selectors.maps import map_detail, map_summary


class MapListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: shape(shapes.MapSummary)(many=True), 429: E429}, tags=["maps"])
    def get(self, request: Request) -> Response:
        return Response([map_summary(slug) for slug in engine.maps_available()])


class MapDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: shape(shapes.Map), 404: err("not_found: no such map."), 429: E429},
        tags=["maps"],
    )
    def get(self, request: Request, slug: str) -> Response:
        if slug not in engine.maps_available():
            raise NotFound("No such map.")
        return Response(map_detail(slug))
