"""Token authentication: knox's hashed tokens, sent as ``Authorization: Token <token>``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication

if TYPE_CHECKING:  # importing it at run time would cycle through DRF's settings
    from drf_spectacular.openapi import AutoSchema


class TokenAuthentication(KnoxTokenAuthentication):
    """knox, with a stable import path (settings and the schema refer to it).

    knox sweeps the user's other expired tokens on every request (one more query each time).
    Personal tokens here never expire (TOKEN_TTL None), so only the token in hand is checked.
    """

    def _cleanup_token(self, auth_token: Any) -> bool:  # knox is untyped: an AuthToken
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "games.api.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <token>`: create one with POST /api/v1/auth/token/ or on "
            "the account's API tokens page (/accounts/tokens/).",
        }
