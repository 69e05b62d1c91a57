"""Deadlines are shown in the reader's zone: the profile's for a player, the browser's for a
visitor (static/js/zone.js names it in a cookie), UTC without either; a new account starts with
the zone its browser named."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.test import Client

from accounts.models import Profile
from games import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(django_user_model):
    users = [
        django_user_model.objects.create_user(f"zone{i}", f"zone{i}@example.com", "pw-zone-12345")
        for i in range(2)
    ]
    g = services.game_create(creator=users[0], map="germany", max_players=2)
    services.game_join(game_id=g.pk, user=users[1])
    g.refresh_from_db()
    assert g.status == "running"
    return g, users


def _zone_shown(client: Client, game) -> str:
    html = client.get(f"/games/{game.pk}/").content.decode()
    marker = '<span translate="no">'
    return html.split(marker, 1)[1].split("<", 1)[0]


def test_a_visitor_sees_the_zone_their_browser_names(game):
    g, _users = game
    c = Client()
    assert _zone_shown(c, g) == "UTC"
    c.cookies["tz"] = "Asia/Tokyo"
    assert _zone_shown(c, g) == "JST"
    c.cookies["tz"] = "America%2FNew_York"  # percent-encoded by some browsers
    assert _zone_shown(c, g) in ("EST", "EDT")


@pytest.mark.parametrize("bogus", ["Mars/Olympus", "../../etc/passwd", "x" * 500, ""])
def test_a_zone_this_system_does_not_know_reads_as_utc(game, bogus):
    g, _users = game
    c = Client()
    c.cookies["tz"] = bogus
    assert _zone_shown(c, g) == "UTC"


def test_a_players_profile_zone_wins_over_the_browsers(game):
    g, users = game
    Profile.objects.filter(user=users[0]).update(timezone="Europe/Berlin")
    c = Client()
    c.force_login(users[0])
    c.cookies["tz"] = "Asia/Tokyo"
    assert _zone_shown(c, g) in ("CET", "CEST")


def test_visitors_pages_load_the_script_that_names_the_zone():
    html = Client().get("/").content.decode()
    assert 'src="/static/js/zone.js"' in html
    assert finders.find("js/zone.js") is not None


def test_a_new_account_starts_with_the_browsers_zone():
    c = Client()
    c.cookies["tz"] = "Asia/Tokyo"
    r = c.post(
        "/accounts/signup/",
        {
            "username": "newzone",
            "email": "newzone@example.com",
            "password1": "a-long-password-9",
            "password2": "a-long-password-9",
        },
    )
    assert r.status_code == 302
    assert get_user_model().objects.get(username="newzone").profile.timezone == "Asia/Tokyo"
