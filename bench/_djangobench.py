"""Shared set-up for the notification/deadline benchmarks: Django on a throw-away PostgreSQL
database (``DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/pgbench_notify; a
``test_`` database is created from it, migrated, and dropped at the end)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pgbench_notify")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")
# As in production: with DEBUG every query is also recorded in connection.queries.
os.environ.setdefault("DEBUG", "False")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)


def setup() -> str:
    """Create and migrate the test database; returns its DATABASE_URL (for worker processes)."""
    import django

    django.setup()
    from django.db import connection

    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"


def teardown(old_name: str | None = None) -> None:
    from django.db import connection

    connection.creation.destroy_test_db(old_name or "pgbench_notify", verbosity=0)


def turn_notices_for_awaited_seats() -> None:
    """Replace the outbox with one pending turn notice per awaited seat (a seat with a deadline),
    written as the turn hook writes them: the emails the notification benches send."""
    from games.models import Notification, Seat
    from games.notifications.outbox import OutboxWriter

    Notification.objects.all().delete()
    rows = []
    for seat in Seat.objects.select_related("user__profile", "game").filter(deadline__isnull=False):
        w = OutboxWriter(game=seat.game)
        w.turn(seat, seq=seat.game.seq)
        rows += w.rows
    Notification.objects.bulk_create(rows)
