"""Profile changes a player makes: the API's ``PATCH /api/v1/me/`` and the profile page's form;
the language switch (``language_choose``) and the language a visitor logs in with
(``language_at_login``).

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
        fields = set(changes)
        # A language other than the one the profile had is the player's choice (the settings
        # form sends every field, its language unchanged too: that one chooses nothing).
        if "language" in changes and changes["language"] != profile.language:
            profile.language_chosen = True
            fields.add("language_chosen")
        for field, value in changes.items():
            setattr(profile, field, value)
        if fields:
            profile.save(update_fields=sorted(fields))
    return profile


def language_choose(*, user: Any, language: str) -> Profile:
    """The player chose ``language`` with the site's language switch: the profile's language,
    chosen (each log-in follows it from now on)."""
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        if profile.language != language or not profile.language_chosen:
            profile.language = language
            profile.language_chosen = True
            profile.save(update_fields=["language", "language_chosen"])
    return profile


def language_at_login(*, user: Any, switched: str | None, browser: str | None) -> Profile | None:
    """Which language a visitor who logs in goes on in, kept in their profile (the pages, and
    their emails, follow the profile from then on; ``accounts.middleware``).

    ``switched``: the language the visitor chose with the site's switch before logging in (its
    cookie), ``browser``: the one their browser asks for (Accept-Language), each None when the
    request does not say. The rules, strongest first:

    * a language the player chose themselves (``language_chosen``) is kept;
    * a visitor's explicit choice made before logging in wins over a language the profile was
      merely given (the default, or the sign-up page's) and becomes the player's choice;
    * the browser's language wins only over the untouched default (English, never chosen): a
      Japanese browser's visitor is not switched to English by a default nobody picked. The
      profile takes it, not as a choice: emails follow it too.

    Returns the profile when it changed, else None."""
    default = Profile._meta.get_field("language").default
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        if profile.language_chosen:
            return None
        if switched:
            profile.language, profile.language_chosen = switched, True
            profile.save(update_fields=["language", "language_chosen"])
            return profile
        if browser and browser != profile.language and profile.language == default:
            profile.language = browser
            profile.save(update_fields=["language"])
            return profile
    return None


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
