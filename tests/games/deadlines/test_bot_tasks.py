"""A bot's task is queued once per game and transaction (``turns.queue_bot_on_commit``): the
task that plays every bot move due in one transaction used to queue a task for the same game
after each of them (60 moves, 60 tasks, each of which queued as many again), and a table's
game waited behind hundreds of them on a small broker."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from games import turns
from games.deadlines.sweep import game_handle_due
from games.models import Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def _bot_tasks(published) -> list[tuple]:
    return [args for name, args in published.calls if name == "game_play_due"]


def test_a_task_that_plays_many_bot_moves_queues_one_task_for_its_game(new_game, published):
    gid, _ps = new_game(players=3)
    Seat.objects.filter(game_id=gid).update(bot_controlled=True, deadline=timezone.now())
    seq = Game.objects.get(pk=gid).seq
    made = game_handle_due(game_id=gid, wait=True)
    assert made > 5
    assert Game.objects.get(pk=gid).seq == seq + made
    assert _bot_tasks(published) == [(gid,)]


def _queue_and_fail(game_id: int) -> None:
    with transaction.atomic():
        turns.queue_bot_on_commit(game_id)
        raise RuntimeError("rolled back")


def test_two_games_get_one_task_each_and_a_rollback_queues_none(new_game, published):
    a, _ = new_game(players=2)
    b, _ = new_game(players=2)
    with transaction.atomic():
        for game_id in (a, b, a, b, a):
            turns.queue_bot_on_commit(game_id)
    assert sorted(_bot_tasks(published)) == [(a,), (b,)]
    published.calls.clear()
    with pytest.raises(RuntimeError):
        _queue_and_fail(a)
    assert _bot_tasks(published) == []
    with transaction.atomic():  # a new transaction after the rollback queues again
        turns.queue_bot_on_commit(a)
    assert _bot_tasks(published) == [(a,)]
