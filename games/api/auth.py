"""Token authentication: knox's hashed tokens, sent as ``Authorization: Bearer <token>`` (the
scheme the OpenAPI schema declares, what generated clients send) or ``Authorization: Token
<token>`` (knox's own word, which clients written before used)."""

from __future__ import annotations

import binascii
import string
from hmac import compare_digest
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

from accounts.tokens import token_used
from games.fastpath import rows

_HEX = frozenset(string.hexdigits)

#: The words an Authorization header may start with for a token (compared case-insensitively).
SCHEMES = (b"bearer", b"token")
EXPECTED = "Send the token as 'Authorization: Bearer <token>' (or 'Token <token>')."


def token_from_header(header: bytes) -> bytes | None:
    """The token in an Authorization header's value; None when there is no header. A header with
    another scheme (Basic, JWT, a bare token) or not one token after the scheme is refused with
    a message that names the scheme expected: a client that guessed wrong learns what to send,
    instead of "no credentials were provided"."""
    parts = header.split()
    if not parts:
        return None
    if parts[0].lower() not in SCHEMES:
        raise exceptions.AuthenticationFailed(
            f"Unknown authorization scheme {parts[0][:20].decode('latin-1')!r}. {EXPECTED}"
        )
    if len(parts) != 2:
        raise exceptions.AuthenticationFailed(f"One token after the scheme, no spaces. {EXPECTED}")
    return parts[1]


if TYPE_CHECKING:  # importing it at run time would cycle through DRF's settings
    from drf_spectacular.openapi import AutoSchema


class TokenAuthentication(KnoxTokenAuthentication):
    """knox, with a stable import path (settings and the schema refer to it).

    knox sweeps the user's other expired tokens on every request (one more query each time).
    Personal tokens here never expire (TOKEN_TTL None), so only the token in hand is checked.

    The lookup is knox's (the rows with the token's key prefix, each with its user; the digest
    compared in constant time; an expired one deleted and skipped; an inactive user refused),
    read with SQL built once (``games.fastpath.rows``) instead of through the ORM's compiler: it
    runs on every API request. Nothing is cached between requests, so a revoked token fails at once.
    """

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        token = token_from_header(get_authorization_header(request))
        if token is None:
            return None
        return self.authenticate_credentials(token)

    #: The WWW-Authenticate of a 401: the scheme to use (the page's quote, which takes a token
    #: too, answers with the same).
    WWW_AUTHENTICATE = 'Bearer realm="api"'

    def authenticate_header(self, request: Request) -> str:
        """The WWW-Authenticate of a 401: the scheme to use."""
        return self.WWW_AUTHENTICATE

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        msg = _("Invalid token.")
        try:  # the header's bytes are whatever the client sent (knox would answer 500)
            text = token.decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(msg) from None
        # knox's tokens are hex; anything else (a NUL, which PostgreSQL refuses in a query's
        # text, was a 500) is refused without a query.
        if not text or not _HEX.issuperset(text):
            raise exceptions.AuthenticationFailed(msg)
        for auth_token in rows.token_candidates(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(text)
            except (TypeError, binascii.Error):
                raise exceptions.AuthenticationFailed(msg) from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                user_and_token = self.validate_user(auth_token)
                token_used(auth_token)  # its owner's list says when it was last used
                return user_and_token
        raise exceptions.AuthenticationFailed(msg)

    def _cleanup_token(self, auth_token: Any) -> bool:  # knox is untyped: an AuthToken
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "games.api.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        # HTTP bearer: generated clients send "Authorization: Bearer <token>" by themselves.
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <token>` (`Token <token>` is accepted too): "
            "create one with POST /api/v1/auth/token/ or on the account's API tokens page "
            "(/accounts/tokens/). Any other scheme is answered 401 authentication_failed.",
        }
