"""The restored card: after a failover or a point-in-time restore, each player of a game that
went back sees on its page, for ``told.PAGE_DAYS`` days, what the email says (the move it went
back to, their own lost moves and messages). A player who turned emails off learns it only
here (tests/games/restore/test_after_restore.py writes the row through ``after_restore``).
Not shown to spectators, on a past board, about another game, or once the days are over; the
page reads it in the reader's one statement (``games.web.reader``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from cardhelpers import render_card, view_for
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from games.models import Notification
from games.restore.told import PAGE_DAYS
from games.web.cards.restored import restored_card

pytestmark = pytest.mark.django_db


def told(user, game, *, seq: int = 3, other_game: bool = False) -> Notification:
    """A ``restored`` row as ``after_restore`` writes it (its payload's shape)."""
    at = timezone.now().isoformat()
    gid = game.pk + 1000 if other_game else game.pk
    seat = game.seats.get(user=user).seat
    return Notification.objects.create(
        recipient=user,
        game_id=None if other_game else game.pk,
        kind=Notification.Kind.RESTORED,
        status=Notification.Status.SENT,
        last_error="skipped: emails off or no address; told on the game page",
        dedupe_key=f"restored:test:{user.pk}:{gid}",
        payload={
            "label": "test",
            "restored_to": at,
            "games": [
                {
                    "game": gid,
                    "seq": seq,
                    "lost_game": False,
                    "moves": [
                        [seq + 1, seat, "web", at, "build", {"cities": ["essen"], "cost": 10}]
                    ],
                    "chat": [[at, "<b>see you</b>"]],
                }
            ],
        },
    )


def test_a_player_of_a_game_that_went_back_sees_what_was_lost(started_game, make_user):
    game, users = started_game(3)
    me = users[0]
    told(me, game)
    card = restored_card(view_for(game, me))
    notice = card["restored"]
    assert notice is not None
    assert notice["head"] == f"Game #{game.pk} went back to move 3."
    assert notice["lines"][0].startswith("Your move “")
    assert "built in Essen" in notice["lines"][0]
    assert notice["lines"][0].endswith("was lost: please play it again.")
    html = render_card("restored", view_for(game, me), card)
    assert "restored to an earlier point" in html
    assert "&lt;b&gt;see you&lt;/b&gt;" in html  # a chat text is escaped
    assert 'role="status"' in html


def test_nobody_else_and_no_other_time_sees_it(started_game, make_user):
    game, users = started_game(3)
    me, other = users[0], users[1]
    row = told(me, game)
    assert restored_card(view_for(game, make_user()))["restored"] is None  # a spectator
    assert restored_card(view_for(game, None))["restored"] is None  # not signed in
    assert restored_card(view_for(game, other))["restored"] is None  # no row of theirs
    assert restored_card(view_for(game, me, history_seq=1))["restored"] is None  # a past board
    Notification.objects.filter(pk=row.pk).update(
        created_at=timezone.now() - timedelta(days=PAGE_DAYS, minutes=1)
    )
    assert restored_card(view_for(game, me))["restored"] is None  # days over


def test_a_row_about_another_game_says_nothing_here(started_game):
    game, users = started_game(2)
    told(users[0], game, other_game=True)
    assert restored_card(view_for(game, users[0]))["restored"] is None


def test_the_page_shows_it_in_both_languages_without_reading_more(started_game, client_for):
    from test_page_queries import PLAYER_PAGE_QUERIES

    game, users = started_game(3)
    me = users[0]
    told(me, game)
    client = client_for(me)
    client.get(f"/games/{game.pk}/")
    with CaptureQueriesContext(connection) as q:
        page = client.get(f"/games/{game.pk}/").content.decode()
    assert len(q.captured_queries) <= PLAYER_PAGE_QUERIES
    assert 'id="restored"' in page
    assert f"Game #{game.pk} went back to move 3." in page
    me.profile.language = "ja"
    me.profile.save()
    with translation.override("en"):  # the page activates Japanese: not for the next tests
        ja = client_for(me).get(f"/games/{game.pk}/").content.decode()
    assert "復元されました" in ja
    assert "went back to move" not in ja
