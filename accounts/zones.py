"""A user's time zone: the one place that turns a stored name into a zone.

Times are stored in UTC and shown (pages, emails, deadlines' weekends) in the reader's zone: the
profile's, else (a visitor's page) the browser's, which static/js/zone.js keeps in a cookie, else
UTC. A name stored before it was validated, or removed from the system's zone database since,
must not break a page or an email: it reads as UTC.
"""

from __future__ import annotations

import functools
import zoneinfo
from typing import Any
from urllib.parse import unquote

UTC = zoneinfo.ZoneInfo("UTC")
#: The cookie in which the browser's script names its zone (an IANA name, e.g. Asia/Tokyo).
BROWSER_ZONE_COOKIE = "tz"


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


@functools.cache
def _known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


#: The regions of the zone database's own names ("Europe/Berlin"); the other names it holds are
#: old aliases ("US/Eastern", "Japan") or no place at all ("localtime", the server's own zone).
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)


def zone_choices(current: str | None = None) -> list[str]:
    """The zones a person picks theirs from: UTC, then the "Region/City" names; a ``current``
    name outside those (set through the API, or before) stays offered, so saving the form does
    not change it.

    >>> names = zone_choices("US/Eastern")
    >>> names[0], "Asia/Tokyo" in names, "US/Eastern" in names, "localtime" in names
    ('UTC', True, True, False)
    """
    names = sorted(z for z in _known_zones() if z.split("/", 1)[0] in REGIONS and "/" in z)
    if current and current != "UTC" and current not in names and current in _known_zones():
        names.append(current)
    return ["UTC", *names]


def browser_zone(request: Any) -> zoneinfo.ZoneInfo | None:
    """The zone the visitor's browser named in its cookie, if it is a zone this system knows."""
    name = unquote(getattr(request, "COOKIES", {}).get(BROWSER_ZONE_COOKIE, ""))[:64]
    return zoneinfo.ZoneInfo(name) if name in _known_zones() else None


def request_zone(request: Any) -> zoneinfo.ZoneInfo:
    """The zone a page is shown in: a signed-in user's profile zone, else the browser's, else UTC.

    >>> from types import SimpleNamespace as R
    >>> request_zone(R(user=None, COOKIES={"tz": "Asia/Tokyo"})).key
    'Asia/Tokyo'
    >>> request_zone(R(user=None, COOKIES={"tz": "../../etc/passwd"})).key
    'UTC'
    """
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        return user_zone(user)
    return browser_zone(request) or UTC
