"""What a change writes for the stream: one ``StreamEvent`` in the change's transaction (the
log every stream reads), and, with Redis, one wake-up published after the commit (never before,
and nothing without Redis)."""

from __future__ import annotations

import pytest
from apihelpers import play_default

from games.models import Game, StreamEvent
from games.stream import events

pytestmark = pytest.mark.django_db


def test_a_move_logs_one_event_with_each_player_and_their_deadline(new_game, settings):
    settings.STREAM_REDIS_URL = ""
    gid, ps = new_game(players=3)
    before = StreamEvent.objects.filter(game_id=gid).count()
    play_default(gid, ps)
    (event,) = StreamEvent.objects.filter(game_id=gid).order_by("id")[before:]
    game = Game.objects.get(pk=gid)
    assert (event.seq, event.kind) == (game.seq, "game")
    assert event.body == {
        "event": "game",
        "game": {
            "id": gid,
            "map": "germany",
            "seq": game.seq,
            "status": "running",
            "to_act": sorted(game.to_act),
        },
    }
    assert set(event.seats) == {str(p.user.pk) for p in ps}
    awaited = [seat for seat, deadline in event.seats.values() if deadline is not None]
    assert sorted(awaited) == sorted(game.to_act)


def test_a_move_wakes_the_streams_after_commit(
    new_game, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.STREAM_REDIS_URL = "redis://127.0.0.1:1/0"  # never reached: wake is captured
    woken: list[int] = []
    monkeypatch.setattr(events, "wake", woken.append)
    gid, ps = new_game(players=3)
    woken.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play_default(gid, ps)
    assert woken == []  # not before the commit
    for callback in callbacks:
        callback()
    assert woken == [StreamEvent.objects.filter(game_id=gid).latest("id").pk]


def test_without_redis_nothing_is_published(new_game, settings, monkeypatch):
    settings.STREAM_REDIS_URL = ""
    woken: list = []
    monkeypatch.setattr(events, "wake", woken.append)
    gid, ps = new_game(players=2)
    play_default(gid, ps)
    assert woken == []
