"""What a change publishes: one frame for the game's watchers and one per player, after the
transaction commits, and nothing at all without Redis."""

from __future__ import annotations

import json

import pytest
from apihelpers import play_default

from games.stream import events

pytestmark = pytest.mark.django_db


def _body(frame: bytes) -> dict:
    (data,) = [line for line in frame.decode().splitlines() if line.startswith("data: ")]
    return json.loads(data[6:])


def test_a_move_publishes_for_watchers_and_each_player_after_commit(
    new_game, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.STREAM_REDIS_URL = "redis://127.0.0.1:1/0"  # never reached: publish is captured
    sent: list[list[tuple[str, bytes]]] = []
    monkeypatch.setattr(events, "publish", sent.append)
    gid, ps = new_game(players=3)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play_default(gid, ps)
    assert sent == []  # not before the commit
    for callback in callbacks:
        callback()
    (msgs,) = sent
    channels = [c for c, _f in msgs]
    assert channels[0] == events.game_channel(gid)
    assert sorted(channels[1:]) == sorted(events.user_channel(p.user.pk) for p in ps)
    turns = [_body(f) for _c, f in msgs[1:]]
    assert sum(b["your_turn"] for b in turns) == len(_body(msgs[0][1])["game"]["to_act"])


def test_without_redis_nothing_is_published(new_game, settings, monkeypatch):
    settings.STREAM_REDIS_URL = ""
    sent: list = []
    monkeypatch.setattr(events, "publish", sent.append)
    gid, ps = new_game(players=2)
    play_default(gid, ps)
    assert sent == []
