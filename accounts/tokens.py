"""Personal API tokens, made in one place (the API's token login and the account's tokens page).

A user holds at most ``REST_KNOX["TOKEN_LIMIT_PER_USER"]`` live tokens: a script that logs in on
every run without revoking its token, or someone holding a stolen password, cannot mint tokens
without end; past the limit a new token is refused until one is revoked.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings


class TokenLimitReached(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"An account holds at most {limit} API tokens: revoke one first.")
        self.limit = limit


def token_limit() -> int | None:
    limit = knox_settings.TOKEN_LIMIT_PER_USER
    return int(limit) if limit is not None else None


def token_create(user: Any) -> tuple[AuthToken, str]:
    """A new token for ``user`` (no expiry): (the stored row, the token to show once).

    Raises ``TokenLimitReached`` when the user already holds the most live tokens allowed. The
    user's row is locked meanwhile, so two requests at once cannot both pass the count."""
    limit = token_limit()
    with transaction.atomic():
        if limit is not None:
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            live = AuthToken.objects.filter(user=user).filter(
                Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
            )
            if live.count() >= limit:
                raise TokenLimitReached(limit)
        return AuthToken.objects.create(user=user, expiry=None)


def tokens_of(user: Any) -> list[AuthToken]:
    """The user's live API tokens, newest first (the rows: their digests and key prefixes, never
    the tokens, which are stored hashed)."""
    return list(
        AuthToken.objects.filter(user=user)
        .filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()))
        .order_by("-created")
    )


def token_revoke(*, user: Any, prefix: str) -> bool:
    """Revoke the user's token(s) starting with ``prefix`` (the key the list shows); whether
    there was one. Another user's token is never touched."""
    if not prefix:
        return False
    deleted, _ = AuthToken.objects.filter(user=user, token_key=prefix).delete()
    return deleted > 0
