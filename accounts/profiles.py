"""Profile changes a player makes: the API's ``PATCH /api/v1/me/`` and the profile page's form.

``profile_update`` owns the transaction: it reads the profile under a row lock and writes only
the fields it was given, so a change made meanwhile by another request (a vacation started, the
bot upgrade, the calendar address) is not written back over with the values read before it.
The caller validates the values (``games.api.serializers.MeSerializer``,
``accounts.forms.ProfileForm``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import Profile

#: What a player may change about themselves here; the rest has its own path (vacations, the bot
#: account, the calendar address) or is the server's.
EDITABLE = frozenset(
    {
        "display_name",
        "timezone",
        "language",
        "notification_mode",
        "reminder_fraction",
        "invitations",
    }
)


def profile_update(*, user: Any, changes: Mapping[str, Any]) -> Profile:
    """Set ``changes`` (field: validated value, fields of ``EDITABLE`` only) on the user's
    profile (made if missing) and return it."""
    unknown = set(changes) - EDITABLE
    if unknown:
        raise ValueError(f"not editable here: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        for field, value in changes.items():
            setattr(profile, field, value)
        if changes:
            profile.save(update_fields=sorted(changes))
    return profile


def calendar_address_set(*, user: Any, on: bool) -> Profile:
    """Give the user's calendar feed a new secret address (``on``: the old one stops working at
    once) or turn the feed off. The page (``accounts.views.calendar``) and the API
    (``/api/v1/me/calendar/``) both come here; each asks a session to have confirmed its password
    before a new address, which anyone holding it may read without a login."""
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        profile.calendar_token = secrets.token_urlsafe(24) if on else ""
        profile.save(update_fields=["calendar_token"])
    return profile


def calendar_url(profile: Profile) -> str | None:
    """The calendar feed's address, or None when it is off."""
    if not profile.calendar_token:
        return None
    return f"{settings.SITE_URL}/calendar/{profile.calendar_token}.ics"
