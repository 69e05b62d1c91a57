"""Token authentication: knox's hashed tokens, sent as ``Authorization: Token <token>``."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication


class TokenAuthentication(KnoxTokenAuthentication):
    """knox, unchanged but for a stable import path (settings and the schema refer to it)."""


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "games.api.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <token>`: create one with POST /api/v1/auth/token/ or on "
            "the account's API tokens page (/accounts/tokens/).",
        }
