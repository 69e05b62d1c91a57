"""Invitations: a private game is not listed and takes only players with its link's code or an
invitation by username (who get an email and see it on their home page); a game asking for
reliable players refuses those who miss too many turns; the creator's invitation passes both."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db


def _private(make_player, **options):
    creator = make_player()
    r = creator.post(
        "/api/v1/games/",
        {"map": "germany", "max_players": 3, "options": {"private": True, **options}},
    )
    assert r.status_code == 201, r.content
    return r.json()["id"], creator


def test_a_private_game_is_not_listed_and_refuses_strangers(make_player, client):
    gid, creator = _private(make_player)
    stranger = make_player()
    assert gid not in [
        g["id"] for g in stranger.get("/api/v1/games/?status=open").json()["results"]
    ]
    assert gid in [g["id"] for g in creator.get("/api/v1/games/?status=open").json()["results"]]
    assert f"#{gid} " not in client.get("/").content.decode()
    # Without its link's code a stranger is told nothing: the game is not found.
    r = stranger.post(f"/api/v1/games/{gid}/join/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_a_private_game_under_way_is_not_listed_either(make_player, client):
    """Unlisted for good: once it runs, strangers do not find it among the games in progress."""
    from games import services
    from games.models import Game

    gid, creator = _private(make_player)
    game = Game.objects.get(pk=gid)
    for _ in range(2):
        p = make_player()
        services.game_invite(game_id=gid, user=creator.user, username=p.user.username)
        services.game_join(game_id=gid, user=p.user)
    game.refresh_from_db()
    assert game.status == "running"
    stranger = make_player()
    listed = [g["id"] for g in stranger.get("/api/v1/games/?status=running").json()["results"]]
    assert gid not in listed
    assert gid in [g["id"] for g in creator.get("/api/v1/games/?status=running").json()["results"]]
    assert f"#{gid} " not in client.get("/").content.decode()


def test_a_game_from_before_the_private_option_is_listed_to_everyone(make_player, client):
    """Options saved before ``private`` existed lack the key: such a game is public, in the
    lobby and among the games in progress alike."""
    from games.models import Game

    creator, stranger = make_player(), make_player()
    r = creator.post("/api/v1/games/", {"map": "germany", "max_players": 3})
    gid = r.json()["id"]
    game = Game.objects.get(pk=gid)
    game.options = {k: v for k, v in game.options.items() if k != "private"}
    game.save(update_fields=["options"])
    listed = [g["id"] for g in stranger.get("/api/v1/games/?status=open").json()["results"]]
    assert gid in listed
    assert f"#{gid} " in client.get("/").content.decode()


def test_the_private_link_lets_a_player_in(make_player, client):
    gid, creator = _private(make_player)
    detail = creator.get(f"/api/v1/games/{gid}/").json()
    url = detail["invite_url"]
    code = url.rstrip("/").rsplit("/", 1)[1]
    friend = make_player()
    assert "invite_url" not in friend.get(f"/api/v1/games/{gid}/").json()  # the creator's only
    assert friend.post(f"/api/v1/games/{gid}/join/", {"code": "wrong"}).status_code == 404
    # Through the page: the link shows the lobby with a Join button that carries the code.
    client.force_login(friend.user)
    page = client.get(urlsplit(url).path)
    assert page.status_code == 200
    assert f'name="code" value="{code}"' in page.content.decode()
    r = client.post(f"/games/{gid}/join/", {"code": code})
    assert r.status_code == 302
    from games.models import Seat

    assert Seat.objects.filter(game_id=gid, user=friend.user).exists()


def test_a_wrong_link_is_not_found(make_player, client):
    gid, _creator = _private(make_player)
    assert client.get(f"/games/{gid}/invite/not-the-code/").status_code == 404


def test_an_invitation_by_username_emails_lists_and_admits(make_player, client):
    gid, creator = _private(make_player)
    guest = make_player()
    r = creator.post(f"/api/v1/games/{gid}/invitations/", {"username": guest.user.username})
    assert r.status_code == 201
    from games.models import Notification

    (n,) = Notification.objects.filter(kind="invited")
    assert n.recipient_id == guest.user.pk
    from games.notifications.sending import notifications_send

    notifications_send(ids=[n.pk])
    (email,) = [m for m in mail.outbox if guest.user.email in m.to]
    assert f"#{gid}" in email.subject
    assert "invites you" in email.body
    client.force_login(guest.user)
    assert f"/games/{gid}/join/" in client.get("/").content.decode()  # on their home page
    assert guest.post(f"/api/v1/games/{gid}/join/").status_code == 200
    # Asked twice: still one invitation and one email.
    creator.post(f"/api/v1/games/{gid}/invitations/", {"username": guest.user.username})
    assert Notification.objects.filter(kind="invited").count() == 1


@pytest.mark.parametrize(
    ("who", "status", "code"),
    [("nobody-here", 400, "invalid_field"), ("", 400, "invalid_field")],
)
def test_inviting_an_unknown_name_is_a_clear_error(make_player, who, status, code):
    gid, creator = _private(make_player)
    r = creator.post(f"/api/v1/games/{gid}/invitations/", {"username": who})
    assert r.status_code == status
    assert r.json()["error"]["code"] == code


def test_only_the_creator_invites(make_player):
    gid, creator = _private(make_player)
    other, guest = make_player(), make_player()
    r = other.post(f"/api/v1/games/{gid}/invitations/", {"username": guest.user.username})
    assert r.status_code == 404  # a stranger does not see the private game at all
    # A player of the game who is not its creator is told why.
    creator.post(f"/api/v1/games/{gid}/invitations/", {"username": other.user.username})
    assert other.post(f"/api/v1/games/{gid}/join/").status_code == 200
    r = other.post(f"/api/v1/games/{gid}/invitations/", {"username": guest.user.username})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "not_creator"


def _record(user, *, timeouts: int, made: int) -> None:
    """Give ``user`` a record: ``made`` turns in time and ``timeouts`` missed, in one game."""
    from django.contrib.auth import get_user_model

    from games.models import Game, Move, Seat

    other = get_user_model().objects.create_user(f"rec-{user.pk}", "o@example.com", None)
    game = Game.objects.create(creator=other, map="germany", max_players=2, status="running")
    Seat.objects.create(game=game, seat=0, user=user, colour="red")
    Seat.objects.create(game=game, seat=1, user=other, colour="blue")
    sources = ["timeout"] * timeouts + ["web"] * made
    for i, source in enumerate(sources):
        Move.objects.create(game=game, seq=i + 1, seat=0, action={"type": "pass"}, source=source)


def test_a_game_for_reliable_players_refuses_one_who_misses_turns(make_player):
    creator = make_player()
    r = creator.post(
        "/api/v1/games/", {"map": "germany", "max_players": 3, "options": {"min_on_time": 80}}
    )
    gid = r.json()["id"]
    late, punctual, newcomer = make_player(), make_player(), make_player()
    _record(late.user, timeouts=5, made=5)  # 50 % in time
    r = late.post(f"/api/v1/games/{gid}/join/")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "below_reliability"
    assert r.json()["error"]["details"] == {"min_on_time": 80, "yours": 50}
    _record(punctual.user, timeouts=1, made=9)  # 90 %
    assert punctual.post(f"/api/v1/games/{gid}/join/").status_code == 200
    assert newcomer.post(f"/api/v1/games/{gid}/join/").status_code == 200  # no record: welcome


def test_min_on_time_is_checked(make_player):
    creator = make_player()
    r = creator.post(
        "/api/v1/games/", {"map": "germany", "max_players": 3, "options": {"min_on_time": 101}}
    )
    assert r.status_code == 400
    assert r.json()["error"]["details"]["field"] == "options.min_on_time"
