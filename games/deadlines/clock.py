"""Deadline arithmetic: pure functions of instants, durations and a time zone.

All arithmetic is done in UTC (aware ``datetime`` subtraction with the *same* ``ZoneInfo`` is
wall-clock arithmetic in Python, which is wrong across a daylight-saving change); the player's zone
only decides which stretches of time are Saturdays and Sundays.

Rules:
  * A turn lasts ``hours`` of counted time from ``start``.
  * With ``pause_weekends``, time that falls on a Saturday or Sunday *in the player's time zone*
    does not count (a turn given on Friday 20:00 with 24 hours ends on Monday 20:00).
  * While the player is on vacation (``vacation_until`` in the future) the clock does not run: it
    starts when the vacation ends.
  * The reminder is due when ``fraction`` of the counted time has passed (same rules), so with
    weekends paused a reminder is never due on a weekend that does not count.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta

from accounts.zones import zone_named

MIN_TURN_HOURS = 12
MAX_TURN_HOURS = 24 * 7


def _next_local_midnight(t_utc: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    local = t_utc.astimezone(zone)
    nxt = datetime.combine(local.date() + timedelta(days=1), time(0), tzinfo=zone)
    return nxt.astimezone(UTC)


def add_counted_time(
    start: datetime,
    amount: timedelta,
    *,
    tz: str | zoneinfo.ZoneInfo | None = "UTC",
    pause_weekends: bool = False,
) -> datetime:
    """The instant when ``amount`` of counted time has passed since ``start`` (aware, UTC)."""
    if start.tzinfo is None:
        raise ValueError("start must be an aware datetime")
    t = start.astimezone(UTC)
    if not pause_weekends:
        return t + amount
    zone = zone_named(tz)
    remaining = amount
    # At most a few iterations per day of the turn (7 days + weekends): bounded.
    for _ in range(10_000):
        local = t.astimezone(zone)
        end_of_day = _next_local_midnight(t, zone)
        if local.weekday() >= 5:  # Saturday, Sunday: skip to the next local midnight
            t = end_of_day
            continue
        available = end_of_day - t
        if remaining <= available:
            return t + remaining
        remaining -= available
        t = end_of_day
    raise RuntimeError("deadline computation did not converge")  # pragma: no cover


def turn_deadline(
    *,
    start: datetime,
    hours: float,
    tz: str | zoneinfo.ZoneInfo | None = "UTC",
    pause_weekends: bool = False,
    vacation_until: datetime | None = None,
) -> datetime:
    """When a turn given at ``start`` times out."""
    begin = max(start, vacation_until) if vacation_until else start
    return add_counted_time(begin, timedelta(hours=hours), tz=tz, pause_weekends=pause_weekends)


def reminder_time(
    *,
    start: datetime,
    hours: float,
    fraction: float,
    tz: str | zoneinfo.ZoneInfo | None = "UTC",
    pause_weekends: bool = False,
    vacation_until: datetime | None = None,
) -> datetime | None:
    """When the reminder for that turn is due; ``None`` when ``fraction`` is not in (0, 1)."""
    if not 0 < fraction < 1:
        return None
    return turn_deadline(
        start=start,
        hours=hours * fraction,
        tz=tz,
        pause_weekends=pause_weekends,
        vacation_until=vacation_until,
    )
