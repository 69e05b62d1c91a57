"""Logging in with the API: ``POST /api/v1/auth/token/`` makes a token from a username and
password (allauth's counts of failed logins apply, as on the login page), ``DELETE`` revokes
the token a request came with. Listing and revoking others: ``games.api.account``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from allauth.account.adapter import get_adapter
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import permissions, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied, Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.tokens import TokenLimitReached, token_create, token_limit
from games import shapes
from games.api import serializers as s
from games.api.openapi import shape
from games.api.schema import COMMON, E400, E401, E429, err
from games.api.throttles import ScopedThrottle

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission


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
            403: err(
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
