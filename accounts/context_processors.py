"""What every page's layout needs to know about the signed-in player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from . import deliverability


def mail_trouble(request: HttpRequest) -> dict[str, Any]:
    """``mail_trouble``: the banner's facts when our emails do not reach the signed-in player
    (``accounts.deliverability``), else nothing. No query: the profile is read with the user."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not deliverability.undeliverable(user):
        return {}
    return {
        "mail_trouble": {
            "address": user.email,
            "reason": deliverability.why(user),
            "emails_off": user.profile.notification_mode == "none",
        }
    }
