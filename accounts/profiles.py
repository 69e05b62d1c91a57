"""Profile changes a player makes: the API's ``PATCH /api/v1/me/`` and the profile page's form.

``profile_update`` owns the transaction: it reads the profile under a row lock and writes only
the fields it was given, so a change made meanwhile by another request (a vacation started, the
bot upgrade, the calendar address) is not written back over with the values read before it.
The caller validates the values (``games.api.serializers.MeSerializer``,
``accounts.forms.ProfileForm``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
