"""The deadline line of an email names the zone once when its abbreviation is its key."""

import zoneinfo
from datetime import UTC, datetime

from django.utils import translation

from games.notifications.emails import format_when

WHEN = datetime(2026, 11, 27, 9, 28, tzinfo=UTC)


def test_utc_is_named_once() -> None:
    with translation.override("en"):
        text = format_when(WHEN, zoneinfo.ZoneInfo("UTC"))
    assert text.endswith("(UTC)")
    assert "UTC, UTC" not in text


def test_a_zone_with_an_abbreviation_keeps_both() -> None:
    with translation.override("en"):
        text = format_when(WHEN, zoneinfo.ZoneInfo("Europe/Berlin"))
    assert text.endswith("(CET, Europe/Berlin)")


def test_no_deadline_is_empty() -> None:
    assert format_when(None, zoneinfo.ZoneInfo("UTC")) == ""
