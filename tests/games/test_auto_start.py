"""A full game starts by itself (the creator's choice at creation, on by default), and every player
is told once: "the game has started, you move first" or "waiting for X"."""

from __future__ import annotations

import pytest

from games.models import Game, Notification

pytestmark = pytest.mark.django_db


def test_the_last_seat_filling_starts_the_game_and_tells_everyone_once(make_player):
    a, b, c = make_player(), make_player(), make_player()
    r = a.post("/api/v1/games/", {"map": "germany", "max_players": 3})
    assert r.json()["options"]["auto_start"] is True  # the default
    gid = r.json()["id"]
    assert b.post(f"/api/v1/games/{gid}/join/").json()["status"] == "open"
    assert c.post(f"/api/v1/games/{gid}/join/").json()["status"] == "running"
    game = Game.objects.get(pk=gid)
    assert game.status == Game.Status.RUNNING
    assert game.seed is not None
    started = Notification.objects.filter(game=game, kind=Notification.Kind.GAME_STARTED)
    assert sorted(n.recipient_id for n in started) == sorted(p.user.pk for p in (a, b, c))
    # The creator's start is refused now: the game runs already.
    assert a.post(f"/api/v1/games/{gid}/start/").json()["error"]["code"] == "game_already_started"


def test_a_creator_who_starts_it_themselves_keeps_a_full_game_open(make_player):
    a, b = make_player(), make_player()
    r = a.post(
        "/api/v1/games/", {"map": "germany", "max_players": 2, "options": {"auto_start": False}}
    )
    gid = r.json()["id"]
    assert b.post(f"/api/v1/games/{gid}/join/").json()["status"] == "open"
    assert not Notification.objects.filter(kind=Notification.Kind.GAME_STARTED).exists()
    assert a.post(f"/api/v1/games/{gid}/start/").json()["status"] == "running"


def test_auto_start_must_be_true_or_false(make_player):
    r = make_player().post(
        "/api/v1/games/", {"map": "germany", "max_players": 2, "options": {"auto_start": "maybe"}}
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_field"


def test_the_new_game_form_offers_it_checked(make_player):
    from django.test import Client

    user = make_player().user
    c = Client()
    c.force_login(user)
    html = c.get("/games/new/").content.decode()
    assert 'name="auto_start"' in html
    assert 'name="auto_start" id="id_auto_start" checked' in html


def test_a_full_game_that_does_not_start_by_itself_emails_its_creator_once(make_player):
    from games import services
    from games.models import Game, Notification
    from games.notifications.emails import email_build

    a, b, c = make_player(), make_player(), make_player()
    game = services.game_create(
        creator=a.user, map="germany", max_players=3, options={"auto_start": False}
    )
    services.game_join(game_id=game.pk, user=b.user)
    assert not Notification.objects.filter(kind="game_full").exists()  # not full yet
    services.game_join(game_id=game.pk, user=c.user)
    assert Game.objects.get(pk=game.pk).status == "open"
    (n,) = Notification.objects.filter(kind="game_full")
    assert n.recipient_id == a.user.pk
    mail = email_build(n)
    assert "is full" in mail.subject
    services.game_start(game_id=game.pk, user=a.user)
    assert email_build(Notification.objects.get(pk=n.pk)) is None  # started: nothing to say


def test_the_started_email_says_who_moves_first(make_player):
    """The player who moves first reads "You move first." with what they can do; the others
    read who moves first, by name, and (a game played by round sheets, the default) their
    round sheet, asked of every player at once."""
    from django.core import mail

    from games.models import Seat
    from games.notifications import sending
    from games.selectors import seat_name

    a, b, c = make_player(), make_player(), make_player()
    gid = a.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    b.post(f"/api/v1/games/{gid}/join/")
    c.post(f"/api/v1/games/{gid}/join/")
    game = Game.objects.get(pk=gid)
    first = Seat.objects.select_related("user__profile").get(game=game, seat=game.to_act[0])
    ids = Notification.objects.filter(kind=Notification.Kind.GAME_STARTED).values_list(
        "id", flat=True
    )
    assert sending.notifications_send(ids=list(ids)) == {"sent": 3}
    by_to = {m.to[0]: m for m in mail.outbox}
    assert len(by_to) == 3
    mine = by_to.pop(first.user.email)
    assert "has started: your turn" in mine.subject
    assert "You move first." in mine.body
    assert "What you can do:" in mine.body
    for other in by_to.values():
        assert "You move first." not in other.body
        assert (
            f"First to move: {seat_name(first)}." in other.body
        )  # a left-to-right name: no isolates
        assert "Your round sheet for round 1" in other.body


def test_whoever_fills_the_last_seat_on_the_page_is_told_the_game_started(make_player):
    from django.test import Client

    a, b, c = make_player(), make_player(), make_player()
    gid = a.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    pages = {}
    for p in (b, c):
        browser = Client()
        browser.force_login(p.user)
        pages[p] = browser.post(f"/games/{gid}/join/", follow=True).content.decode()
    assert "You joined the game." in pages[b]
    assert "the game has started" not in pages[b]
    assert "The last seat is filled: the game has started." in pages[c]
