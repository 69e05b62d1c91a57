"""Every game lock is FOR NO KEY UPDATE (games.fastpath.rows.game_for_update): a transaction that
holds a seat row and inserts a row referencing the game (the reminders' sweep: it locks the due
seats, clears their reminder time and writes the reminder rows) commits while a move holds the
game and waits for that seat. With FOR UPDATE the commit's foreign-key check (FOR KEY SHARE on
the game row) waited for the move, and the move for the seat: a deadlock, the move answered 503
(found by scripts/season)."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from django.db import connection

import powergrid
from games.models import Game, Seat
from games.services.moves import move_submit

pytestmark = pytest.mark.django_db(transaction=True)


def _dsn() -> str:
    s = connection.settings_dict
    return (
        f"host={s['HOST'] or '127.0.0.1'} port={s['PORT'] or 5432} user={s['USER']} "
        f"dbname={s['NAME']}" + (f" password={s['PASSWORD']}" if s["PASSWORD"] else "")
    )


def test_a_move_and_a_reminders_transaction_on_its_seat_both_commit(new_game):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's")
    gid, _players = new_game(players=3)
    game = Game.objects.get(pk=gid)
    mover = Seat.objects.select_related("user").get(game=game, seat=game.to_act[0])
    action = powergrid.default_action(powergrid.from_json(game.state_json), mover.seat)

    # The reminders' transaction: the mover's seat locked and updated, a row referencing the game.
    other = psycopg.connect(_dsn())
    other.execute("SET deadlock_timeout = '100ms'")
    other.execute("SELECT id FROM games_seat WHERE id = %s FOR UPDATE", (mover.pk,)).fetchone()
    other.execute("UPDATE games_seat SET reminder_at = NULL WHERE id = %s", (mover.pk,))
    other.execute(
        "INSERT INTO games_notification (recipient_id, game_id, kind, payload, status, attempts,"
        " last_error, created_at) VALUES (%s, %s, 'reminder', '{}', 'sent', 0, '', now())",
        (mover.user_id, gid),
    )

    outcome: list[object] = []

    def move() -> None:
        try:
            outcome.append(
                move_submit(
                    game_id=gid, user=mover.user, action=action, expected_seq=game.seq, source="api"
                )
            )
        except Exception as exc:
            outcome.append(exc)
        finally:
            connection.close()

    t = threading.Thread(target=move)
    t.start()
    try:
        time.sleep(0.8)  # the move holds the game and waits for the seat
        other.commit()  # FOR KEY SHARE on the game row for the notification's foreign key
    finally:
        other.close()
        t.join(20)
    assert outcome, "the move finished"
    assert not isinstance(outcome[0], Exception), outcome[0]
    assert Game.objects.get(pk=gid).seq == game.seq + 1
