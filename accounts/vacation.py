"""Vacations: a player's clocks stop for a number of days, counted against a yearly allowance.

``Profile.vacation_days_per_year`` is the allowance, ``vacation_days_used`` the days taken in
``vacation_year`` (reset when a vacation starts in a new year). While ``vacation_until`` is in the
future:
  * ``vacation_start`` pushed every running deadline (and reminder) of the player back by the
    length of the vacation;
  * a turn given during the vacation starts its clock when the vacation ends
    (``games.deadlines.clock.turn_deadline``).
``vacation_stop`` ends a vacation early: the unused whole days go back to the allowance and the
deadlines are pulled forward by the unused time (so a turn has the time it had left when the
vacation started).

The allowance is the profile's own rule; the deadlines are the games': this module announces the
shift with the ``vacation_shifted`` signal (sent inside the transaction), and the games app moves
its seats' deadlines in its receiver (``games.deadlines.clock``). Accounts know nothing of games.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from accounts.models import Profile

#: Sent (inside the vacation's transaction) with ``user`` and ``delta``, a timedelta: the user's
#: running deadlines move by ``delta`` (later when a vacation starts, earlier when it is cut short).
vacation_shifted = Signal()


class VacationError(ValueError):
    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def _profile_locked(user: Any, now: datetime) -> Profile:
    profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
    if profile.vacation_year != now.year:
        profile.vacation_year = now.year
        profile.vacation_days_used = 0
    return profile


def vacation_days_left(profile: Profile, *, now: datetime | None = None) -> int:
    now = now or timezone.now()
    used = profile.vacation_days_used if profile.vacation_year == now.year else 0
    return max(0, profile.vacation_days_per_year - used)


def _shift_deadlines(user: Any, delta: timedelta) -> None:
    vacation_shifted.send(sender=Profile, user=user, delta=delta)


def vacation_start(*, user: Any, days: int, now: datetime | None = None) -> Profile:
    """Start a vacation of ``days`` whole days now. Raises VacationError."""
    now = now or timezone.now()
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise VacationError("A vacation is at least one whole day.", "invalid_days")
    with transaction.atomic():
        profile = _profile_locked(user, now)
        if profile.vacation_until and profile.vacation_until > now:
            raise VacationError("You are already on vacation.", "already_on_vacation")
        left = profile.vacation_days_per_year - profile.vacation_days_used
        if days > left:
            raise VacationError(
                f"Only {max(left, 0)} vacation days are left this year.", "not_enough_days"
            )
        profile.vacation_until = now + timedelta(days=days)
        profile.vacation_days_used += days
        profile.save(update_fields=["vacation_until", "vacation_days_used", "vacation_year"])
        _shift_deadlines(user, timedelta(days=days))
    return profile


def vacation_stop(*, user: Any, now: datetime | None = None) -> Profile:
    """End the current vacation now (no-op when not on vacation)."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = _profile_locked(user, now)
        until = profile.vacation_until
        if not until or until <= now:
            profile.vacation_until = None
            profile.save(update_fields=["vacation_until", "vacation_days_used", "vacation_year"])
            return profile
        unused = until - now
        # Whole unused days go back; a day counts as used once more than an hour of it passed.
        refund = min((unused + timedelta(hours=1)) // timedelta(days=1), profile.vacation_days_used)
        profile.vacation_days_used -= refund
        profile.vacation_until = None
        profile.save(update_fields=["vacation_until", "vacation_days_used", "vacation_year"])
        _shift_deadlines(user, -unused)
    return profile
