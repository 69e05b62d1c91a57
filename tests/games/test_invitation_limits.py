"""Invitations write to another player (an email each): a player chooses who may invite them
(anyone, only players they have played a game with, nobody) on the profile page or with
``PATCH /api/v1/me/``, and the server limits how many a player sends and receives an hour."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _open_game(creator) -> int:
    r = creator.post("/api/v1/games/", {"map": "germany", "max_players": 6})
    assert r.status_code == 201, r.content
    return r.json()["id"]


def _invite(creator, gid: int, guest) -> object:
    return creator.post(f"/api/v1/games/{gid}/invitations/", {"username": guest.user.username})


def _emails_to(user) -> int:
    from games.models import Notification

    return Notification.objects.filter(kind="invited", recipient=user).count()


def test_one_player_cannot_make_the_server_email_another_at_will(make_player, settings):
    """The attack run's case: one player, many games, the same guest: at most
    INVITATIONS_RECEIVED_PER_HOUR emails reach the guest; the rest are refused with 429."""
    settings.INVITATIONS_RECEIVED_PER_HOUR = 3
    creator, guest = make_player(), make_player()
    answers = [_invite(creator, _open_game(creator), guest).status_code for _ in range(6)]
    assert answers == [201] * 3 + [429] * 3
    assert _emails_to(guest.user) == 3
    r = _invite(creator, _open_game(creator), guest)
    assert r.json()["error"]["code"] == "throttled"
    assert r.json()["error"]["details"]["retry_after"] > 0


def test_a_player_sends_a_limited_number_an_hour(make_player, settings):
    settings.INVITATIONS_SENT_PER_HOUR = 4
    creator = make_player()
    gid = _open_game(creator)
    gid2 = _open_game(creator)
    guests = [make_player() for _ in range(6)]
    answers = [
        _invite(creator, gid if i < 3 else gid2, g).status_code for i, g in enumerate(guests)
    ]
    assert answers == [201] * 4 + [429] * 2
    from games.models import Invitation

    assert Invitation.objects.count() == 4


def test_asking_again_for_the_same_guest_is_not_counted(make_player, settings):
    settings.INVITATIONS_RECEIVED_PER_HOUR = 1
    creator, guest = make_player(), make_player()
    gid = _open_game(creator)
    assert [_invite(creator, gid, guest).status_code for _ in range(3)] == [201] * 3
    assert _emails_to(guest.user) == 1


def test_a_limit_is_per_hour(make_player, settings, time_machine):
    import datetime as dt

    time_machine.move_to(dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC), tick=False)
    settings.INVITATIONS_RECEIVED_PER_HOUR = 1
    creator, guest = make_player(), make_player()
    assert _invite(creator, _open_game(creator), guest).status_code == 201
    assert _invite(creator, _open_game(creator), guest).status_code == 429
    time_machine.move_to(dt.datetime(2026, 11, 25, 13, 1, tzinfo=dt.UTC), tick=False)
    assert _invite(creator, _open_game(creator), guest).status_code == 201


def _choose(player, choice: str) -> None:
    r = player.client.patch("/api/v1/me/", {"invitations": choice}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["invitations"] == choice


def test_a_player_may_refuse_every_invitation(make_player):
    creator, guest = make_player(), make_player()
    assert guest.get("/api/v1/me/").json()["invitations"] == "anyone"
    _choose(guest, "nobody")
    r = _invite(creator, _open_game(creator), guest)
    assert (r.status_code, r.json()["error"]["code"]) == (403, "invitation_refused")
    assert _emails_to(guest.user) == 0


def test_a_player_may_take_invitations_from_those_they_played_with_only(make_player, new_game):
    from games import services

    gid, (friend, guest) = new_game(players=2)  # they have played a game together
    stranger = make_player()
    _choose(guest, "played_with")
    r = _invite(stranger, _open_game(stranger), guest)
    assert (r.status_code, r.json()["error"]["code"]) == (403, "invitation_refused")
    assert _invite(friend, _open_game(friend), guest).status_code == 201
    # Sitting in the same lobby is not playing together.
    lobby = _open_game(stranger)
    services.game_join(game_id=lobby, user=guest.user)
    assert _invite(stranger, _open_game(stranger), guest).status_code == 403
    del gid


@pytest.mark.parametrize("value", ["everyone", "", None, 1, ["nobody"]])
def test_an_unknown_choice_is_refused(make_player, value):
    player = make_player()
    r = player.client.patch("/api/v1/me/", {"invitations": value}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["details"]["field"] == "invitations"
    assert player.get("/api/v1/me/").json()["invitations"] == "anyone"


def test_the_profile_page_sets_it(make_player):
    player = make_player()
    page = Client()
    page.force_login(player.user)
    html = page.get("/accounts/profile/").content.decode()
    assert 'name="invitations"' in html
    r = page.post(
        "/accounts/profile/",
        {
            "display_name": "",
            "timezone": "UTC",
            "language": "en",
            "notification_mode": "every_turn",
            "reminder_fraction": "0.8",
            "invitations": "played_with",
        },
    )
    assert r.status_code == 302
    player.user.profile.refresh_from_db()
    assert player.user.profile.invitations == "played_with"


def test_the_lobby_page_says_why_an_invitation_was_refused(make_player):
    creator, guest = make_player(), make_player()
    _choose(guest, "nobody")
    gid = _open_game(creator)
    page = Client()
    page.force_login(creator.user)
    r = page.post(f"/games/{gid}/invite/", {"username": guest.user.username}, follow=True)
    assert "does not take invitations" in r.content.decode()
