from __future__ import annotations

import pytest
from django.core import mail

from games.models import Game, Notification, Seat
from games.notifications import sending

pytestmark = pytest.mark.django_db


def test_start_writes_started_rows_and_deadlines(
    new_game, published, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        gid, ps = new_game(players=3)
    game = Game.objects.get(pk=gid)
    rows = Notification.objects.filter(game=game)
    assert sorted(r.kind for r in rows) == ["game_started"] * 3
    awaited = set(game.to_act)
    for s in Seat.objects.filter(game=game):
        assert (s.deadline is not None) == (s.seat in awaited)
    assert "notifications_send_game" in published.names()
    for r in rows:
        assert sending.notification_send(notification_id=r.pk) == "sent"
    assert len(mail.outbox) == 3
    m = mail.outbox[0]
    assert m.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    print(m.subject)
    print(m.body)
