"""Open games that never fill: the creator is warned at OPEN_GAME_WARN_DAYS, the game closed
(deleted) at OPEN_GAME_CLOSE_DAYS and everyone seated told, emails in English and Japanese; a
game that fills or starts leaves the sweep; running it twice changes nothing more. Time moves
with time-machine."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _days(settings):
    settings.OPEN_GAME_WARN_DAYS = 7
    settings.OPEN_GAME_CLOSE_DAYS = 10


def _sweep():
    from games.notifications.sending import outbox_sweep
    from games.services.open_sweep import open_games_sweep

    counts = open_games_sweep()
    outbox_sweep()
    return counts


def _open_game(make_player, lang="en", players=2, max_players=4):
    ps = [make_player() for _ in range(players)]
    for p in ps:
        p.user.profile.language = lang
        p.user.profile.save()
    gid = ps[0].post("/api/v1/games/", {"map": "germany", "max_players": max_players}).json()["id"]
    for p in ps[1:]:
        assert p.post(f"/api/v1/games/{gid}/join/").status_code == 200
    return gid, ps


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_warned_then_closed_with_emails_in_the_creators_language(make_player, lang):
    from games.models import Game, Notification

    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        gid, ps = _open_game(make_player, lang)
        clock.shift(timedelta(days=6, hours=23))
        assert _sweep() == {"warned": 0, "closed": 0}
        assert mail.outbox == []
        clock.shift(timedelta(hours=2))  # 7 days and an hour
        assert _sweep() == {"warned": 1, "closed": 0}
        assert _sweep() == {"warned": 0, "closed": 0}  # once
        [warning] = mail.outbox
        assert warning.to == [ps[0].user.email]  # the creator only
        assert f"#{gid}" in warning.subject
        if lang == "ja":
            assert "締め切られます" in warning.subject
            assert "2 席が埋まっています" in warning.body or "2席が埋まっています" in warning.body
        else:
            assert "it will be closed" in warning.subject
            assert "2 of its 4 seats are taken" in warning.body
        assert Game.objects.get(pk=gid).open_warned_at is not None
        clock.shift(timedelta(days=2, hours=22))  # 9 days 23 hours
        assert _sweep() == {"warned": 0, "closed": 0}
        clock.shift(timedelta(hours=2))
        assert _sweep() == {"warned": 0, "closed": 1}
    assert not Game.objects.filter(pk=gid).exists()
    closed = mail.outbox[1:]
    assert sorted(m.to[0] for m in closed) == sorted(p.user.email for p in ps)
    for m in closed:
        assert f"#{gid}" in m.subject
        assert ("締め切られました" in m.subject) if lang == "ja" else ("never filled" in m.subject)
        assert "/games/new/" in m.body
    assert Notification.objects.filter(kind="open_closed", status="sent").count() == 2


def test_a_game_that_fills_or_starts_is_left_alone(make_player):
    from games.models import Game

    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        full, _ps = _open_game(make_player, players=2, max_players=2)  # starts when full
        started, ps = _open_game(make_player, players=2, max_players=3)
        assert ps[0].post(f"/api/v1/games/{started}/start/").status_code == 200
        clock.shift(timedelta(days=30))
        assert _sweep() == {"warned": 0, "closed": 0}
    assert Game.objects.get(pk=full).status == "running"
    assert Game.objects.get(pk=started).status == "running"
    from games.models import Notification

    assert not Notification.objects.filter(kind__startswith="open_").exists()


def test_a_game_filled_after_the_warning_is_not_closed(make_player):
    from games.models import Game

    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        gid, _ps = _open_game(make_player, players=1, max_players=2)
        clock.shift(timedelta(days=8))
        assert _sweep()["warned"] == 1
        late = make_player()
        assert late.post(f"/api/v1/games/{gid}/join/").status_code == 200  # full: it starts
        clock.shift(timedelta(days=5))
        assert _sweep() == {"warned": 0, "closed": 0}
    assert Game.objects.get(pk=gid).status == "running"


def test_closing_comes_a_day_after_the_warning_at_least(make_player, settings):
    """Settings that would close at once (close <= warn) still give the creator a day."""
    from games.models import Game

    settings.OPEN_GAME_CLOSE_DAYS = 3
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        gid, _ps = _open_game(make_player)
        clock.shift(timedelta(days=20))  # long past both: the sweep never ran meanwhile
        assert _sweep() == {"warned": 1, "closed": 0}
        clock.shift(timedelta(hours=23))
        assert _sweep() == {"warned": 0, "closed": 0}
        clock.shift(timedelta(hours=2))
        assert _sweep() == {"warned": 0, "closed": 1}
    assert not Game.objects.filter(pk=gid).exists()
