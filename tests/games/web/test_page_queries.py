"""The game page's query budget, so a later change cannot add reads to it unnoticed.

A player's view is: the session, the user, their profile (language, zone), the game, its seats
with users and profiles (read once: names, the viewer's seat, the chat's reader check all use
them), and the chat's last messages. A spectator's is the same without the chat where it is the
players' only (its check needs no query either)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

PLAYER_PAGE_QUERIES = 6
SPECTATOR_PAGE_QUERIES = 5


def _reads(client, url: str) -> list[str]:
    client.get(url)  # the first view fills the per-process caches (the log, the forecast)
    with CaptureQueriesContext(connection) as q:
        r = client.get(url)
    assert r.status_code == 200
    return [x["sql"] for x in q.captured_queries]


def test_a_players_game_page_reads_six_times(started_game, client_for):
    game, users = started_game(4)
    reads = _reads(client_for(users[0]), f"/games/{game.pk}/")
    assert len(reads) <= PLAYER_PAGE_QUERIES, "\n".join(reads)
    assert sum('FROM "games_seat"' in sql for sql in reads) == 1  # the seats, once


def test_a_spectators_game_page_reads_five_times(started_game, client_for, make_user):
    game, _users = started_game(4)
    reads = _reads(client_for(make_user()), f"/games/{game.pk}/")
    assert len(reads) <= SPECTATOR_PAGE_QUERIES, "\n".join(reads)
    assert not any("games_chatmessage" in sql for sql in reads)  # players' chat: not read
