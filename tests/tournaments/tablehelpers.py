"""Playing a tournament table's game out with bots (imported by name: a ``from conftest import``
found tests/games/conftest.py instead whenever that one was imported first in the process)."""

from __future__ import annotations


def play_out(game_id: int, *, limit: int = 5000) -> None:
    """Every seat of the game goes silent and the bot plays them (as after the timeouts), on
    the worker's path (``game_handle_due``), until the game ends."""
    from django.utils import timezone

    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Seat

    Seat.objects.filter(game_id=game_id).update(bot_controlled=True)
    for _ in range(limit):
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            return
        Seat.objects.filter(game_id=game_id, seat__in=game.to_act).update(deadline=timezone.now())
        game_handle_due(game_id=game_id, wait=True)
    raise AssertionError(f"game {game_id} did not end in {limit} passes")


def play_silent(game_id: int, *, limit: int = 5000) -> None:
    """Nobody at the table moves: each awaited seat's deadline passes (the sweep's timeouts),
    and after the game's ``timeouts_before_bot`` the bot takes the seat over and plays it out."""
    from datetime import timedelta

    from django.db.models import Max

    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Seat

    for _ in range(limit):
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            return
        latest = Seat.objects.filter(game_id=game_id).aggregate(d=Max("deadline"))["d"]
        assert latest is not None, "a running game awaits somebody"
        game_handle_due(game_id=game_id, now=latest + timedelta(seconds=1), wait=True)
    raise AssertionError(f"game {game_id} did not end in {limit} passes")


def make_tables() -> int:
    """Make the game of every table still without one, as the tasks queued after its round's
    commit do (``tournaments.tasks.table_make``; a test's broker runs nothing): how many."""
    from tournaments import services
    from tournaments.models import Table

    made = 0
    for table_id in (
        Table.objects.filter(game__isnull=True).order_by("pk").values_list("pk", flat=True)
    ):
        made += services.table_make(table_id=table_id) is not None
    return made
