"""Display names reach other players' pages and plain-text emails: control and format characters
(line breaks that would forge an email line, bidirectional overrides that reorder text) are
refused everywhere a name is set; a normal name, Japanese included, is kept."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db


class _Player:
    def __init__(self, user, client):
        self.user, self.client = user, client


@pytest.fixture
def make_player():
    count = iter(range(10**6))

    def make():
        user = get_user_model().objects.create_user(f"dn{next(count)}", password="pw-123456-x")
        client = APIClient()
        client.force_authenticate(user)
        return _Player(user, client)

    return make


BAD = ["Eve\r\nBcc: all@example.com", "\u202egnp.exe", "zero\u200bwidth", "tab\there"]


@pytest.mark.parametrize("name", BAD)
def test_the_api_refuses_a_name_with_control_characters(make_player, name):
    p = make_player()
    r = p.client.patch("/api/v1/me/", {"display_name": name}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["code"] == "invalid_field"
    assert Profile.objects.get(user=p.user).display_name == ""


@pytest.mark.parametrize("name", ["Ada Lovelace", "電力 太郎", "Zoë"])
def test_a_normal_name_is_kept(make_player, name):
    p = make_player()
    r = p.client.patch("/api/v1/me/", {"display_name": name}, format="json")
    assert r.status_code == 200, r.content
    assert Profile.objects.get(user=p.user).display_name == name


def test_the_profile_page_refuses_it_too(make_player):
    p = make_player()
    c = Client()
    c.force_login(p.user)
    page = c.get("/accounts/profile/")
    assert page.status_code == 200
    r = c.post(
        "/accounts/profile/",
        {
            "display_name": "Eve\u202e",
            "timezone": "UTC",
            "language": "en",
            "notification_mode": "every_turn",
            "reminder_fraction": "0.5",
        },
    )
    assert r.status_code in (200, 400)
    assert "control characters" in r.content.decode()
    assert Profile.objects.get(user=p.user).display_name == ""


@pytest.mark.parametrize("name", ["alice", "ALICE", "Аlice", "  alice "])
def test_no_one_may_wear_another_players_username(make_player, name):
    """mallory cannot be shown as "alice" (any case, width or look-alike letters), by the API
    or the profile page; two players may still share an ordinary display name."""
    get_user_model().objects.create_user("alice", password="pw-123456-x")
    mallory = make_player()
    r = mallory.client.patch("/api/v1/me/", {"display_name": name}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["code"] == "invalid_field"
    c = Client()
    c.force_login(mallory.user)
    page = c.post(
        "/accounts/profile/",
        {
            "display_name": name,
            "timezone": "UTC",
            "language": "en",
            "notification_mode": "every_turn",
            "reminder_fraction": "0.5",
        },
    )
    assert "another player&#x27;s username" in page.content.decode()
    assert Profile.objects.get(user=mallory.user).display_name == ""


def test_ones_own_username_and_a_shared_name_are_fine(make_player):
    a, b = make_player(), make_player()
    own = a.client.patch("/api/v1/me/", {"display_name": a.user.username.upper()}, format="json")
    assert own.status_code == 200, own.content
    for p in (a, b):
        r = p.client.patch("/api/v1/me/", {"display_name": "Tom"}, format="json")
        assert r.status_code == 200, r.content
