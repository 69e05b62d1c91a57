"""Deadline arithmetic: weekends in the player's zone, vacations, Asia/Tokyo, DST changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from games.deadlines.clock import reminder_time, turn_deadline

TOKYO = ZoneInfo("Asia/Tokyo")
BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")


def local(dt: datetime, zone: ZoneInfo) -> datetime:
    return dt.astimezone(zone).replace(tzinfo=None)


def test_plain_hours_without_weekend_pause():
    start = datetime(2025, 6, 6, 18, 0, tzinfo=UTC)  # a Friday
    assert turn_deadline(start=start, hours=24) == start + timedelta(hours=24)


def test_weekend_pause_friday_evening_ends_monday_evening_utc():
    start = datetime(2025, 6, 6, 20, 0, tzinfo=UTC)  # Friday 20:00
    d = turn_deadline(start=start, hours=24, tz="UTC", pause_weekends=True)
    assert d == datetime(2025, 6, 9, 20, 0, tzinfo=UTC)  # Monday 20:00


def test_weekend_pause_uses_the_players_zone_tokyo():
    start = datetime(2025, 6, 6, 20, 0, tzinfo=TOKYO)  # Friday 20:00 in Tokyo (11:00 UTC)
    d = turn_deadline(start=start, hours=24, tz="Asia/Tokyo", pause_weekends=True)
    assert local(d, TOKYO) == datetime(2025, 6, 9, 20, 0)
    # The same instant for a UTC player: Friday 11:00 UTC + 24 h -> Monday 11:00 UTC, which is
    # Monday 20:00 in Tokyo too; but from Friday 23:30 Tokyo (Friday 14:30 UTC) they differ:
    late = datetime(2025, 6, 6, 23, 30, tzinfo=TOKYO)
    tokyo = turn_deadline(start=late, hours=12, tz="Asia/Tokyo", pause_weekends=True)
    utc = turn_deadline(start=late, hours=12, tz="UTC", pause_weekends=True)
    assert local(tokyo, TOKYO) == datetime(2025, 6, 9, 11, 30)  # 0.5 h Fri + 11.5 h Mon
    assert utc == datetime(2025, 6, 9, 2, 30, tzinfo=UTC)  # 9.5 h Fri (UTC) + 2.5 h Mon


def test_turn_given_on_saturday_starts_on_monday():
    start = datetime(2025, 6, 7, 10, 0, tzinfo=TOKYO)  # Saturday
    d = turn_deadline(start=start, hours=12, tz="Asia/Tokyo", pause_weekends=True)
    assert local(d, TOKYO) == datetime(2025, 6, 9, 12, 0)


def test_dst_spring_forward_berlin_counts_real_hours():
    # Saturday 29 March 2025 12:00 CET; clocks go 02:00 -> 03:00 on Sunday.
    start = datetime(2025, 3, 29, 12, 0, tzinfo=BERLIN)
    d = turn_deadline(start=start, hours=24, tz="Europe/Berlin")
    assert d - start == timedelta(hours=24)
    assert local(d, BERLIN) == datetime(2025, 3, 30, 13, 0)  # 24 real hours: 13:00 CEST


def test_dst_fall_back_new_york_with_weekend_pause():
    # Friday 31 October 2025 18:00 EDT; clocks go back on Sunday 2 November.
    start = datetime(2025, 10, 31, 18, 0, tzinfo=NEW_YORK)
    d = turn_deadline(start=start, hours=48, tz="America/New_York", pause_weekends=True)
    # 6 h on Friday, the weekend skipped, Monday 00:00 EST + 24 h, Tuesday 00:00 + 18 h.
    assert local(d, NEW_YORK) == datetime(2025, 11, 4, 18, 0)
    assert d.astimezone(NEW_YORK).utcoffset() == timedelta(hours=-5)


def test_vacation_delays_the_start_of_the_clock():
    start = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)
    back = datetime(2025, 6, 5, 9, 0, tzinfo=UTC)
    d = turn_deadline(start=start, hours=24, vacation_until=back)
    assert d == back + timedelta(hours=24)
    # A vacation already over changes nothing.
    assert turn_deadline(start=back, hours=24, vacation_until=start) == back + timedelta(hours=24)


def test_reminder_at_80_percent_and_disabled_outside_0_1():
    start = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)
    r = reminder_time(start=start, hours=24, fraction=0.8)
    assert r == start + timedelta(hours=19, minutes=12)
    assert reminder_time(start=start, hours=24, fraction=0) is None
    assert reminder_time(start=start, hours=24, fraction=1) is None


def test_reminder_with_weekend_pause_never_falls_on_the_weekend():
    start = datetime(2025, 6, 6, 20, 0, tzinfo=UTC)  # Friday 20:00, 24 h
    r = reminder_time(start=start, hours=24, fraction=0.8, pause_weekends=True)
    assert r is not None
    assert r.weekday() == 0
    assert r == datetime(2025, 6, 9, 15, 12, tzinfo=UTC)  # 4 h Fri + 15.2 h Mon
