"""A user's time zone: the one place that turns a stored name into a zone.

Times are stored in UTC and shown (pages, emails, deadlines' weekends) in the reader's zone: the
profile's, else UTC. A name stored before it was validated, or removed from the system's zone
database since, must not break a page or an email: it reads as UTC.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

UTC = zoneinfo.ZoneInfo("UTC")


def zone_named(name: str | zoneinfo.ZoneInfo | None) -> zoneinfo.ZoneInfo:
    """The zone called ``name`` (an IANA name), or UTC when there is none by that name.

    >>> zone_named("Asia/Tokyo").key, zone_named("Mars/Olympus").key, zone_named(None).key
    ('Asia/Tokyo', 'UTC', 'UTC')
    """
    if isinstance(name, zoneinfo.ZoneInfo):
        return name
    if not name:
        return UTC
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def user_zone(user: Any) -> zoneinfo.ZoneInfo:
    """The zone of a user's profile (UTC for a visitor or a user without a profile)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return UTC
    return zone_named(getattr(getattr(user, "profile", None), "timezone", None))
