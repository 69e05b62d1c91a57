"""The game page's query budget, so a later change cannot add reads to it unnoticed.

A player's view is: the session, the user, their profile (language, zone), the game with its
seats, users and profiles in one statement (read once: names, the viewer's seat, the chat's
reader check all use them), the reader's own rows in one statement (``games.web.reader``: their
private note, their answer to the round's sheet, the rounds the game's sheets answered for the
forecast, and their other games waiting for the "Next game waiting" link), and the chat's last
messages. A spectator's is the same without the chat where it is the players' only (its check
needs no query either) and without a note or a sheet of their own."""

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


def test_the_readers_own_rows_are_one_read_whatever_they_hold(started_game, client_for):
    """With a note, an answered sheet and two other games waiting for the reader, the page still
    reads as often, and shows each: the note, the sheet as answered, the link to the game due
    soonest with how many wait."""
    from datetime import timedelta

    from django.utils import timezone

    from games import notes
    from games.models import Game, Seat
    from games.sheets.services import sheet_get, sheet_put

    game, users = started_game(4)
    to_act = Game.objects.get(pk=game.pk).to_act
    me = users[next(i for i in range(4) if i not in to_act)]  # not awaited: the sheet as answered
    notes.note_set(game_id=game.pk, user=me, text="Watch the coal market")
    sheet_put(game_id=game.pk, user=me, body=sheet_get(game=game, user=me), source="web")
    others = [started_game(2)[0] for _ in range(2)]
    for hours, g in zip((20, 2), others, strict=True):
        seat = g.to_act[0]
        Seat.objects.filter(game=g, seat=seat).update(
            user=me, deadline=timezone.now() + timedelta(hours=hours)
        )
    c = client_for(me)
    reads = _reads(c, f"/games/{game.pk}/")
    assert len(reads) <= PLAYER_PAGE_QUERIES, "\n".join(reads)
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert "Watch the coal market" in page
    assert "Keep this sheet" in page  # answered (the suggestion's button says "Accept")
    assert f'class="next-waiting" href="/games/{others[1].pk}/">Next game waiting (2)' in page
