"""Vacations on the profile page: days left this year, start until a date, end early.

The page calls accounts.vacation (vacation_start / vacation_stop), which moves the
player's running deadlines; these tests check the page's side and that the deadlines moved.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client

from tests.i18n_helpers import english_words, ensure_compiled

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)  # a Tuesday


@pytest.fixture
def traveller():
    user = get_user_model().objects.create_user(
        username="traveller", email="t@example.com", password="pw-travel-123456"
    )
    return user


@pytest.fixture
def page(traveller):
    c = Client()
    c.force_login(traveller)
    return c


@pytest.fixture
def clock():
    with time_machine.travel(NOW, tick=False) as t:
        yield t


def _profile(user):
    user.profile.refresh_from_db()
    return user.profile


def _start(page, until: date | str, follow=True):
    value = until.isoformat() if isinstance(until, date) else until
    return page.post(
        "/accounts/profile/vacation/", {"action": "start", "until": value}, follow=follow
    )


def _stop(page):
    return page.post("/accounts/profile/vacation/", {"action": "stop"}, follow=True)


def test_profile_shows_days_left_and_a_bounded_date_input(page, clock):
    html = page.get("/accounts/profile/").content.decode()
    assert 'id="vacation"' in html
    assert "Vacation days left in 2026: <strong>14</strong> of 14." in html
    date_input = re.search(r'<input[^>]*name="until"[^>]*>', html).group(0)
    assert 'type="date"' in date_input
    assert 'min="2026-03-11"' in date_input
    assert 'max="2026-03-24"' in date_input  # 14 days from today
    assert 'value="2026-03-11"' in date_input
    assert "End the vacation now" not in html


def test_start_a_vacation_until_a_date(page, traveller, clock):
    r = _start(page, date(2026, 3, 15))
    assert r.status_code == 200
    html = r.content.decode()
    assert "Your vacation has started" in html
    prof = _profile(traveller)
    assert prof.vacation_until == NOW + timedelta(days=5)
    assert prof.vacation_days_used == 5
    assert prof.vacation_year == 2026
    assert "Vacation days left in 2026: <strong>9</strong> of 14." in html
    assert "You are on vacation until" in html
    assert "End the vacation now" in html
    assert 'name="until"' not in html  # no second vacation while on one


def test_start_pushes_the_player_s_running_deadline(traveller, clock):
    from games import services
    from games.models import Seat

    other = get_user_model().objects.create_user(username="stay", password="pw-stay-123456")
    # Move by move: only the awaited seat holds a deadline (a round sheet's: every seat).
    game = services.game_create(
        creator=traveller, map="germany", max_players=2, options={"sheets": False}
    )
    services.game_join(game_id=game.pk, user=other)
    game.refresh_from_db()  # the last join started it (auto_start)
    awaited = Seat.objects.get(game=game, deadline__isnull=False)
    waiting = Seat.objects.get(game=game, deadline__isnull=True)
    before = awaited.deadline
    c = Client()
    c.force_login(awaited.user)
    assert _start(c, date(2026, 3, 13)).status_code == 200
    awaited.refresh_from_db()
    waiting.refresh_from_db()
    assert awaited.deadline == before + timedelta(days=3)
    assert waiting.deadline is None


@pytest.mark.parametrize(
    ("until", "message"),
    [
        ("2026-03-25", "You have only 14 vacation days left this year"),
        ("2026-03-10", "Choose a date after today."),
        ("2026-03-01", "Choose a date after today."),
        ("15/03/2026", "Enter a date as year-month-day."),
        ("", "This field is required."),
    ],
)
def test_start_refuses_bad_dates(page, traveller, clock, until, message):
    r = _start(page, until, follow=False)
    assert r.status_code == 400
    assert message in r.content.decode()
    prof = _profile(traveller)
    assert prof.vacation_until is None
    assert prof.vacation_days_used == 0


def test_start_bounded_by_days_already_used(page, traveller, clock):
    prof = _profile(traveller)
    prof.vacation_year, prof.vacation_days_used = 2026, 12
    prof.save()
    html = page.get("/accounts/profile/").content.decode()
    assert "<strong>2</strong> of 14" in html
    assert 'max="2026-03-12"' in html
    r = _start(page, date(2026, 3, 13), follow=False)
    assert r.status_code == 400
    assert "You have only 2 vacation days left this year" in r.content.decode()
    assert _start(page, date(2026, 3, 12)).status_code == 200
    assert _profile(traveller).vacation_days_used == 14


def test_days_used_last_year_do_not_count(page, traveller, clock):
    prof = _profile(traveller)
    prof.vacation_year, prof.vacation_days_used = 2025, 14
    prof.save()
    html = page.get("/accounts/profile/").content.decode()
    assert "<strong>14</strong> of 14" in html


def test_no_days_left(page, traveller, clock):
    prof = _profile(traveller)
    prof.vacation_year, prof.vacation_days_used = 2026, 14
    prof.save()
    html = page.get("/accounts/profile/").content.decode()
    assert "You have no vacation days left this year." in html
    assert 'name="until"' not in html
    r = _start(page, date(2026, 3, 11), follow=False)
    assert r.status_code == 400
    assert _profile(traveller).vacation_until is None


def test_end_a_vacation_early_gives_unused_days_back(page, traveller, clock):
    _start(page, date(2026, 3, 17))  # 7 days
    assert _profile(traveller).vacation_days_used == 7
    clock.move_to(NOW + timedelta(days=2, hours=3))
    r = _stop(page)
    html = r.content.decode()
    assert "Your vacation has ended" in html
    assert "4 unused days went back" in html
    prof = _profile(traveller)
    assert prof.vacation_until is None
    assert prof.vacation_days_used == 3
    assert "<strong>11</strong> of 14" in html
    assert 'name="until"' in html


def test_start_twice_is_refused(page, traveller, clock):
    _start(page, date(2026, 3, 12))
    r = _start(page, date(2026, 3, 14))
    assert r.status_code == 200
    assert "You are already on vacation." in r.content.decode()
    assert _profile(traveller).vacation_days_used == 2


def test_stop_when_not_on_vacation(page, traveller, clock):
    r = _stop(page)
    assert r.status_code == 200
    assert "You are not on vacation." in r.content.decode()


def test_dates_are_the_user_s_own_days(page, traveller):
    """At 20:00 UTC it is already tomorrow in Tokyo: the first date offered is the day after."""
    prof = _profile(traveller)
    prof.timezone = "Asia/Tokyo"
    prof.save()
    with time_machine.travel(datetime(2026, 3, 10, 20, 0, tzinfo=UTC), tick=False):
        html = page.get("/accounts/profile/").content.decode()
        assert 'min="2026-03-12"' in html
        r = _start(page, date(2026, 3, 12))
        assert r.status_code == 200
    assert _profile(traveller).vacation_days_used == 1


def test_vacation_needs_login_and_post(traveller):
    c = Client()
    assert c.post("/accounts/profile/vacation/", {"action": "stop"}).status_code == 302
    c.force_login(traveller)
    assert c.get("/accounts/profile/vacation/").status_code == 405


def test_vacation_in_japanese(page, traveller, clock):
    ensure_compiled()
    prof = _profile(traveller)
    prof.language = "ja"
    prof.save()
    html = page.get("/accounts/profile/").content.decode()
    assert "休暇" in html
    assert "2026年の休暇日数：残り<strong>14</strong>日（全14日）" in html
    assert english_words(html, {"traveller"}) == []
    r = _start(page, date(2026, 3, 25), follow=False)
    assert "今年の休暇日数は残り14日です" in r.content.decode()
    r = _start(page, date(2026, 3, 12))
    html = r.content.decode()
    assert "休暇を開始しました" in html
    assert "今すぐ休暇を終える" in html
    assert english_words(html, {"traveller"}) == []
    html = _stop(page).content.decode()
    assert "休暇を終了し" in html
    assert english_words(html, {"traveller"}) == []


def test_reminder_choices_keep_a_value_set_through_the_api(page, traveller):
    html = page.get("/accounts/profile/").content.decode()
    select = re.search(r'<select[^>]*name="reminder_fraction".*?</select>', html, re.S).group(0)
    assert re.findall(r'value="([\d.]+)"', select) == ["0.5", "0.75", "0.8", "0.9"]
    assert re.search(r'value="0.8"\s+selected', select)
    prof = _profile(traveller)
    prof.reminder_fraction = 0.6
    prof.save()
    html = page.get("/accounts/profile/").content.decode()
    assert re.search(r'value="0.6"\s+selected[^>]*>60%<', html)
    r = page.post(
        "/accounts/profile/",
        {
            "display_name": "",
            "timezone": "UTC",
            "language": "en",
            "notification_mode": "every_turn",
            "reminder_fraction": "0.9",
        },
    )
    assert r.status_code == 302
    assert _profile(traveller).reminder_fraction == 0.9
