"""The site's own address, from one setting (``SITE_URL``): every link written into an email, a
calendar, an invitation or a page that is read elsewhere starts here, never at the host a
request came in on, nor at the ``django.contrib.sites`` record written when the database was
migrated (which said 127.0.0.1:8000 to a server started on another port: ``make run`` sets
SITE_URL from PORT).

>>> from django.test import override_settings
>>> with override_settings(SITE_URL="http://127.0.0.1:8301"):
...     absolute("/accounts/confirm-email/k/"), current_site().domain
('http://127.0.0.1:8301/accounts/confirm-email/k/', '127.0.0.1:8301')
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings


def absolute(path: str) -> str:
    """``path`` (starting with "/") as an address on this site."""
    return settings.SITE_URL.rstrip("/") + path


@dataclass(frozen=True)
class SiteFromSetting:
    """What allauth's emails read of "the current site" (``domain``, ``name``)."""

    domain: str
    name: str = "Power Grid"

    def __str__(self) -> str:
        return self.domain


def current_site() -> SiteFromSetting:
    return SiteFromSetting(urlsplit(settings.SITE_URL).netloc or "127.0.0.1:8000")
