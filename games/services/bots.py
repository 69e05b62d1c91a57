"""Bot accounts of third parties (Lichess's model): a program plays the account through the REST
API and the event stream (``GET /api/v1/stream/``). The upgrade is one way: a bot account stays
a bot account, is marked as a bot wherever its name is shown, and its games are not rated.

Only an account that has never held a seat can become a bot: a person's record (rating,
reliability, games) must not turn into a bot's.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import Profile
from games.models import Seat

from .errors import BotUpgradeRefused


def bot_account_upgrade(*, user: Any) -> Profile:
    """Turn ``user`` into a bot account (idempotent for a bot account already).

    Raises ``BotUpgradeRefused`` when the account has held a seat in any game."""
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        if profile.bot_account:
            return profile
        if profile.bot_kind or Seat.objects.filter(user=user).exists():
            raise BotUpgradeRefused()
        profile.bot_account = True
        profile.notification_mode = Profile.NotificationMode.NONE
        profile.save(update_fields=["bot_account", "notification_mode"])
        return profile
