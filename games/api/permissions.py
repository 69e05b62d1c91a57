"""Permissions beyond DRF's: recent authentication for the writes that outlive a session."""

from __future__ import annotations

from typing import Any

from knox.auth import TokenAuthentication
from rest_framework import permissions
from rest_framework.request import Request

from accounts.reauth import reauthenticate_path, recently_authenticated
from games.services.errors import ServiceError


class ReauthenticationRequired(ServiceError):
    status = 403
    code = "reauthentication_required"
    default_message = (
        "Confirm your password first (the account's reauthentication page), or use an API token."
    )


class RecentAuthentication(permissions.BasePermission):
    """For a write that hands part of the account to the outside for good (a webhook) or cannot
    be undone (the bot account): a session must have confirmed its password lately, as the pages
    ask (``accounts.reauth``). A session from an email's login link has not: 403
    ``reauthentication_required`` (``details.reauthenticate_url``), not a redirect.

    A token passes: it is made only with the password (``POST /api/v1/auth/token/``) or behind
    the same confirmation (the tokens page), and whoever holds it already reads everything a
    webhook would send. Reads (GET, HEAD, OPTIONS) pass."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if isinstance(request.successful_authenticator, TokenAuthentication):
            return True
        if recently_authenticated(request._request):
            return True
        raise ReauthenticationRequired(details={"reauthenticate_url": reauthenticate_path()})
