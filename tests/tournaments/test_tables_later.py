"""Issue 37: a round's transaction seats everyone and records its tables (players and seats)
without their games; a task per table, queued after the commit, makes the table's game
(``services.table_make``) once however often it runs, the periodic sweep makes any table its
task did not (the broker down), and the players are told when their table's game exists."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def _tournament(make_user, entrants: int, **kw):
    from tournaments import services
    from tournaments.models import Entrant

    d = make_user()
    fields = {"name": "Big cup", "maps": ["germany", "usa"], "table_min": 3, "table_max": 5}
    fields.update(kw)
    t = services.tournament_create(director=d, **fields)
    Entrant.objects.bulk_create(Entrant(tournament=t, user=make_user()) for _ in range(entrants))
    return t, d


def _recording(monkeypatch, *, down: bool = False) -> list[tuple[str, tuple]]:
    """Celery publishing recorded, not sent (``down``: the broker refuses every task)."""
    from games import queue

    published: list[tuple[str, tuple]] = []

    def publish(name, *args, **kwargs):
        if down:
            raise ConnectionError("broker down")
        published.append((name, args))

    monkeypatch.setattr(queue, "publish", publish)
    return published


def test_a_big_start_seats_everyone_quickly_and_makes_no_game_in_its_transaction(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    from games.models import Game, Notification
    from tournaments import services
    from tournaments.models import Table, TablePlayer

    published = _recording(monkeypatch)
    t, d = _tournament(make_user, 300)
    began = time.perf_counter()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.tournament_start(tournament_id=t.pk, user=d)
    took = time.perf_counter() - began
    tables = list(Table.objects.filter(round__tournament=t).order_by("pk"))
    assert 60 <= len(tables) <= 100
    assert not Game.objects.exists()  # no game in the start's transaction
    assert all(tb.game_id is None for tb in tables)
    assert TablePlayer.objects.filter(table__round__tournament=t).count() == 300
    assert not Notification.objects.exists()  # told once their table's game exists
    # one task per table, queued after the commit
    assert len(callbacks) == 1
    assert published == [(services.TABLE_MAKE, (tb.pk,)) for tb in tables]
    # about 460 ms a table made in the transaction before (a minute for 300 entrants)
    assert took < 5.0, took


def test_each_table_s_game_is_made_once_however_often_its_task_runs(make_user, monkeypatch):
    from games.models import Game, Notification
    from tournaments import services, tasks
    from tournaments.models import Table, Tournament

    _recording(monkeypatch)
    t, d = _tournament(make_user, 11, table_min=3, table_max=4)  # 4 + 4 + 3
    services.tournament_start(tournament_id=t.pk, user=d)
    tables = list(Table.objects.filter(round__tournament=t).order_by("number"))
    made = [tasks.table_make(tb.pk) for tb in tables]
    assert all(isinstance(g, int) for g in made)
    again = [tasks.table_make(tb.pk) for tb in tables]  # a retried or redelivered task
    assert again == [None] * len(tables)
    assert Game.objects.count() == len(tables)
    for tb in Table.objects.filter(round__tournament=t).select_related("game"):
        players = [p.entrant.user_id for p in tb.players.select_related("entrant")]
        seats = list(tb.game.seats.order_by("seat").values_list("user_id", flat=True))
        assert seats == players  # the recorded seat order
        assert tb.game.status == Game.Status.RUNNING
    # each seated player told once: "your table is ready" in place of the game's own email
    ready = Notification.objects.filter(kind="table_ready")
    assert ready.count() == 11
    assert not Notification.objects.filter(kind="game_started").exists()
    # a tournament no longer running makes no game for a table left without one
    tb = tables[0]
    Table.objects.filter(pk=tb.pk).update(game=None)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    assert services.table_make(table_id=tb.pk) is None
    assert services.table_make(table_id=10**9) is None  # no such table


def test_the_sweep_makes_the_tables_the_broker_did_not_take(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    from django.utils import timezone

    from games.models import Game
    from tournaments import services
    from tournaments.models import Table

    _recording(monkeypatch, down=True)
    t, d = _tournament(make_user, 10, table_min=3, table_max=4)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=t.pk, user=d)  # queueing fails: logged
    assert Table.objects.filter(round__tournament=t, game__isnull=True).count() == 3
    # within the grace the tables are their tasks' to make
    assert services.tournaments_sweep(now=timezone.now())["tables"] == 0
    later = timezone.now() + services.TABLE_MAKE_GRACE + timedelta(seconds=1)
    assert services.tournaments_sweep(now=later)["tables"] == 3
    assert not Table.objects.filter(game__isnull=True).exists()
    assert Game.objects.count() == 3
    assert services.tournaments_sweep(now=later)["tables"] == 0  # nothing left, nothing twice


def test_a_later_round_is_seated_without_games_and_made_after(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    from tablehelpers import make_tables, play_out

    from games.models import Notification
    from tournaments import services
    from tournaments.models import Bye, Table

    published = _recording(monkeypatch)
    t, d = _tournament(make_user, 4, table_min=3, table_max=3, rounds=2)  # a table and a bye
    services.tournament_start(tournament_id=t.pk, user=d)
    assert make_tables() == 1
    [table] = Table.objects.filter(round__tournament=t, round__number=1)
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_out(table.game_id)  # its end seats round 2 (the hook, after the game's commit)
    t.refresh_from_db()
    assert t.current_round == 2
    [table2] = Table.objects.filter(round__tournament=t, round__number=2)
    assert table2.game_id is None
    assert (services.TABLE_MAKE, (table2.pk,)) in published
    assert not Notification.objects.filter(payload__round=2).exists()
    assert services.table_make(table_id=table2.pk) is not None
    table2.refresh_from_db()
    assert table2.game.seats.count() == 3
    told = Notification.objects.filter(kind="round_started", payload__round=2)
    [bye] = Bye.objects.filter(round__number=2, round__tournament=t)
    assert {n.recipient_id for n in told} == {
        *(p.entrant.user_id for p in table2.players.all()),
        bye.entrant.user_id,
    }


@pytest.mark.django_db(transaction=True)
def test_two_workers_making_one_table_make_one_game(make_user, monkeypatch):
    """Two tasks for one table at once (a redelivery while the first still runs): the second
    waits on the table's row and finds its game made; the sweep's (``skip_locked``) passes it
    by at once."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    from games.models import Game
    from tournaments import services
    from tournaments.models import Table

    _recording(monkeypatch)
    t, d = _tournament(make_user, 3, table_min=3, table_max=3)
    services.tournament_start(tournament_id=t.pk, user=d)
    [table] = Table.objects.filter(round__tournament=t)
    inside = threading.Event()
    original = services._table_game

    def slow(*args, **kwargs):
        inside.set()
        time.sleep(0.5)  # the game being made, the table's row locked
        return original(*args, **kwargs)

    monkeypatch.setattr(services, "_table_game", slow)
    results: dict[str, object] = {}

    def run(name: str, **kw) -> None:
        try:
            game = services.table_make(table_id=table.pk, **kw)
            results[name] = game.pk if game is not None else None
        finally:
            connection.close()

    first = threading.Thread(target=run, args=("first",))
    first.start()
    assert inside.wait(10)
    swept = threading.Thread(target=run, args=("sweep",), kwargs={"skip_locked": True})
    second = threading.Thread(target=run, args=("second",))
    swept.start()
    second.start()
    for th in (first, swept, second):
        th.join(30)
    assert isinstance(results["first"], int)
    assert results["second"] is None
    assert results["sweep"] is None
    assert Game.objects.count() == 1
    table.refresh_from_db()
    assert table.game_id == results["first"]


def test_a_block_made_after_the_draw_does_not_keep_a_table_from_its_game(make_user, monkeypatch):
    """The round was drawn with blocks kept apart; a block made between the draw and the
    table's task (seconds) used to make the lobby refuse the join, and the table stayed without
    a game, the sweep retrying each minute for ever. The table's game is made as drawn; a
    lobby game still refuses the blocked pair."""
    from accounts import blocks
    from games.models import Game
    from games.services import lobby
    from games.services.errors import Blocked
    from tournaments import services, tasks
    from tournaments.models import Table

    _recording(monkeypatch)
    t, d = _tournament(make_user, 7, table_min=3, table_max=4)
    services.tournament_start(tournament_id=t.pk, user=d)
    first = Table.objects.filter(round__tournament=t).order_by("number").first()
    a, b = [p.entrant.user for p in first.players.select_related("entrant__user")][:2]
    blocks.block(user=a, username=b.username)
    made = [tasks.table_make(tb.pk) for tb in Table.objects.filter(round__tournament=t)]
    assert all(isinstance(g, int) for g in made)
    game = Game.objects.get(pk=Table.objects.get(pk=first.pk).game_id)
    assert {a.pk, b.pk} <= set(game.seats.values_list("user_id", flat=True))
    assert game.status == Game.Status.RUNNING
    other = lobby.game_create(creator=a, map="germany", max_players=3)
    with pytest.raises(Blocked):
        lobby.game_join(game_id=other.pk, user=b)
