"""The refusals' hourly cap holds when workers refuse one account's replies at the same moment:
the count and the new row are one step per account (``receive._refused_lately`` locks the
account's row), so the second worker counts the first's row. Forced here by making each
count wait before its row is written: without the lock every worker counts the same rows and
all of them answer."""

from __future__ import annotations

import threading
import time

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = 4


def test_workers_refusing_at_once_answer_no_more_than_the_cap(new_game, settings, monkeypatch):
    from django.db import connection

    from games.inbox import receive
    from games.models import Notification

    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serialises every write")
    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 2
    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    counted = receive._refused_lately

    def slow_count(*args, **kwargs):
        n = counted(*args, **kwargs)
        time.sleep(0.3)  # the window between counting and writing the row, made wide
        return n

    monkeypatch.setattr(receive, "_refused_lately", slow_count)
    start = threading.Barrier(WORKERS)
    results: list[object] = []

    def worker(i: int) -> None:
        from django.db import connection as own

        try:
            start.wait()
            raw = _reply(to, p.user.email, "hello", mid=f"<race{i}@x.example>")
            results.append(receive.mail_receive(raw, via="pipe"))
        finally:
            own.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == WORKERS
    assert all(r.code == "unknown_command" for r in results)
    assert sum(r.answered for r in results) == 2
    assert Notification.objects.filter(game_id=gid, kind="reply", recipient=p.user).count() == 2
