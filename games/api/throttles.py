"""Throttles whose rates are read from settings at request time (so they follow overrides),
counting an anonymous client by the address ``accounts.addresses.client_address`` tells (the
``TRUSTED_PROXIES`` setting: a client-written ``X-Forwarded-For`` is not believed)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from accounts.addresses import client_address


class _LiveRates(SimpleRateThrottle):
    # DRF reads THROTTLE_RATES and never assigns it, so a read-only property is safe here.
    @property
    def THROTTLE_RATES(self) -> dict[str, str | None]:  # type: ignore[override]
        # The stubs type the setting's values as numbers; they are rate strings such as "5/min".
        return api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[return-value]

    def get_ident(self, request: Request) -> Any:
        return client_address(request._request) or "unknown"


class AnonThrottle(_LiveRates, AnonRateThrottle):
    pass


class UserThrottle(_LiveRates, UserRateThrottle):
    pass


class ScopedThrottle(_LiveRates, ScopedRateThrottle):
    pass
