"""Throttles whose rates are read from settings at request time (so they follow overrides)."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle


class _LiveRates:
    @property
    def THROTTLE_RATES(self) -> dict[str, str | None]:  # type: ignore[override]
        return api_settings.DEFAULT_THROTTLE_RATES


class AnonThrottle(_LiveRates, AnonRateThrottle):
    pass


class UserThrottle(_LiveRates, UserRateThrottle):
    pass


class ScopedThrottle(_LiveRates, ScopedRateThrottle):
    pass
