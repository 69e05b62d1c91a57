"""TURN_HOUR_SECONDS, the test-only clock of scripts/season: an hour of turn time lasts that many
seconds, for the deadline and the reminder alike; unset, an hour is an hour."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import turns
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _clock(django_user_model, hours: int) -> tuple:
    user = django_user_model.objects.create_user(username="ann", password="pw-ann-123")
    game = Game.objects.create(
        creator=user, map="germany", max_players=3, options={"turn_hours": hours, "sheets": False}
    )
    seat = Seat.objects.create(game=game, user=user, seat=0)
    now = timezone.now()
    deadline, reminder = turns.seat_clock(game, seat, now=now)
    return deadline - now, reminder - now


def test_an_hour_is_an_hour_by_default(django_user_model, settings):
    assert settings.TURN_HOUR_SECONDS == 3600
    deadline, reminder = _clock(django_user_model, 2)
    assert deadline == timedelta(hours=2)
    assert reminder == timedelta(hours=2) * 0.8


def test_the_season_clock_makes_an_hour_last_seconds(django_user_model, settings):
    settings.TURN_HOUR_SECONDS = 5
    deadline, reminder = _clock(django_user_model, 2)
    assert deadline == timedelta(seconds=10)
    assert reminder == timedelta(seconds=8)
