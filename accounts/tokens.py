"""Personal API tokens, made in one place (the API's token login and the account's tokens page).

A user holds at most ``REST_KNOX["TOKEN_LIMIT_PER_USER"]`` live tokens: a script that logs in on
every run without revoking its token, or someone holding a stolen password, cannot mint tokens
without end; past the limit a new token is refused until one is revoked.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings

from accounts.models import TokenInfo


class TokenLimitReached(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"An account holds at most {limit} API tokens: revoke one first.")
        self.limit = limit


def token_limit() -> int | None:
    limit = knox_settings.TOKEN_LIMIT_PER_USER
    return int(limit) if limit is not None else None


#: A token's last use is written at most this often per server process (seconds): the list says
#: when it was last used to within minutes, without a write on every request.
LAST_USED_EVERY = 300
_noted: dict[str, float] = {}


def token_create(user: Any, name: str = "") -> tuple[AuthToken, str]:
    """A new token for ``user`` (no expiry), named ``name`` (its owner's label, may be empty):
    (the stored row, the token to show once).

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
        instance, token = AuthToken.objects.create(user=user, expiry=None)
        TokenInfo.objects.create(token=instance, name=name[:60])
        return instance, token


def token_used(auth_token: AuthToken) -> None:
    """Note that ``auth_token`` authenticated a request now (the API's authentication calls
    this): written when this process has not written it for ``LAST_USED_EVERY`` seconds, so the
    hot path makes no query most of the time."""
    now = time.monotonic()
    last = _noted.get(auth_token.digest)
    if last is not None and now - last < LAST_USED_EVERY:
        return
    if len(_noted) > 10_000:  # a bound on the memory: forget, and write each once more
        _noted.clear()
    _noted[auth_token.digest] = now
    written = TokenInfo.objects.filter(token=auth_token).update(last_used_at=timezone.now())
    if not written:  # a token made before names and last uses were kept
        TokenInfo.objects.get_or_create(token=auth_token, defaults={"last_used_at": timezone.now()})


def tokens_of(user: Any) -> list[AuthToken]:
    """The user's live API tokens, newest first (the rows: their digests and key prefixes, never
    the tokens, which are stored hashed)."""
    return list(
        AuthToken.objects.filter(user=user)
        .filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()))
        .select_related("info")
        .order_by("-created")
    )


def token_revoke(*, user: Any, prefix: str) -> bool:
    """Revoke the user's token(s) starting with ``prefix`` (the key the list shows); whether
    there was one. Another user's token is never touched."""
    if not prefix:
        return False
    deleted, _ = AuthToken.objects.filter(user=user, token_key=prefix).delete()
    return deleted > 0
