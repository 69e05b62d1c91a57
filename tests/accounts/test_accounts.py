"""Accounts: profile on user creation, the allauth pages, profile and API token pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return get_user_model().objects.create_user(
        username="acc", email="acc@example.com", password="a-long-password-1"
    )


def test_profile_created_with_defaults(user):
    p = user.profile
    assert p.timezone == "UTC"
    assert p.language == "en"
    assert p.notification_mode == "every_turn"
    assert p.reminder_fraction == 0.8
    assert p.vacation_days_per_year == 14
    assert p.vacation_days_used == 0
    assert p.name == "acc"


@pytest.mark.parametrize(
    "url", ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
)
def test_public_pages(client, url):
    assert client.get(url).status_code == 200


def test_signup_creates_profile_and_sends_verification(client):
    r = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": "a-long-password-2",
            "password2": "a-long-password-2",
        },
    )
    assert r.status_code == 302
    u = get_user_model().objects.get(username="newbie")
    assert u.profile.language == "en"
    assert any("newbie@example.com" in m.to for m in mail.outbox)


def test_login_logout(client, user):
    r = client.post("/accounts/login/", {"login": "acc", "password": "a-long-password-1"})
    assert r.status_code == 302
    assert client.get("/accounts/profile/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/accounts/profile/").status_code == 302


def test_password_reset_sends_email(client, user):
    r = client.post("/accounts/password/reset/", {"email": "acc@example.com"})
    assert r.status_code == 302
    assert len(mail.outbox) == 1
    assert "acc@example.com" in mail.outbox[0].to


def test_profile_page_saves(client, user):
    client.force_login(user)
    r = client.post(
        "/accounts/profile/",
        {
            "display_name": "Acc",
            "timezone": "Asia/Tokyo",
            "language": "ja",
            "notification_mode": "digest",
            "reminder_fraction": "0.5",
        },
    )
    assert r.status_code == 302
    user.profile.refresh_from_db()
    assert user.profile.timezone == "Asia/Tokyo"
    assert user.profile.notification_mode == "digest"
    assert user.profile.name == "Acc"


def test_profile_page_rejects_bad_timezone(client, user):
    client.force_login(user)
    r = client.post(
        "/accounts/profile/",
        {
            "display_name": "",
            "timezone": "Mars/Base",
            "language": "en",
            "notification_mode": "none",
            "reminder_fraction": "0.8",
        },
    )
    assert r.status_code == 200
    user.profile.refresh_from_db()
    assert user.profile.timezone == "UTC"


def test_profile_page_offers_places_not_the_servers_own_zone(client, user):
    """The time zone list names places ("Europe/Berlin") and UTC: not "localtime" (the server's
    own clock), "Factory" or old aliases; a zone set through the API stays selected."""
    client.force_login(user)
    html = client.get("/accounts/profile/").content.decode()
    assert '<option value="Europe/Berlin">' in html
    assert '<option value="UTC" selected>' in html
    for alias in ("localtime", "Factory", "US/Eastern", "Japan"):
        assert f'<option value="{alias}"' not in html
    user.profile.timezone = "US/Eastern"
    user.profile.save()
    html = client.get("/accounts/profile/").content.decode()
    assert '<option value="US/Eastern" selected>' in html


def test_the_api_changes_the_profile_through_the_service(user, monkeypatch):
    """PATCH /api/v1/me/ is thin: ``accounts.profiles.profile_update`` makes the change."""
    from rest_framework.test import APIClient

    from accounts import profiles

    calls = []
    real = profiles.profile_update
    monkeypatch.setattr("games.api.me.profile_update", lambda **kw: calls.append(kw) or real(**kw))
    api = APIClient()
    api.force_authenticate(user)
    r = api.patch("/api/v1/me/", {"language": "ja", "display_name": "Acc"}, format="json")
    assert r.status_code == 200
    assert (r.json()["language"], r.json()["display_name"]) == ("ja", "Acc")
    assert calls == [{"user": user, "changes": {"language": "ja", "display_name": "Acc"}}]


def test_a_profile_change_writes_only_its_own_fields(user):
    """What another request changed after a PATCH read the profile (a vacation started in
    between) is not written back over with the value read before it: the view saved the whole
    profile it had read."""
    from django.db.models.signals import pre_save
    from rest_framework.test import APIClient

    from accounts.models import Profile
    from accounts.profiles import profile_update

    until = timezone.now() + timedelta(days=3)

    def meanwhile(sender, instance, **kwargs):
        Profile.objects.filter(pk=instance.pk).update(vacation_until=until)

    api = APIClient()
    api.force_authenticate(user)
    pre_save.connect(meanwhile, sender=Profile)
    try:
        r = api.patch("/api/v1/me/", {"timezone": "Asia/Tokyo"}, format="json")
    finally:
        pre_save.disconnect(meanwhile, sender=Profile)
    assert r.status_code == 200
    user.profile.refresh_from_db()
    assert user.profile.timezone == "Asia/Tokyo"
    assert user.profile.vacation_until == until
    with pytest.raises(ValueError, match="vacation_until"):
        profile_update(user=user, changes={"vacation_until": None})


def test_token_page_create_use_revoke(client, user):
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    client.force_login(user)  # a session, but no recent password: creating asks for it again
    assert client.get("/accounts/tokens/").status_code == 200
    r = client.post("/accounts/tokens/", {"create": "1"})
    assert r.status_code == 302
    assert "/reauthenticate/" in r["Location"]
    assert not AuthToken.objects.filter(user=user).exists()
    client.post("/accounts/reauthenticate/", {"password": "a-long-password-1"})
    r = client.post("/accounts/tokens/", {"create": "1", "name": "my bot"})
    token = r.context["new_token"]
    assert token
    assert token in r.content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/me/").status_code == 200
    row = AuthToken.objects.get(user=user)
    page = client.get("/accounts/tokens/").content.decode()
    assert "my bot" in page  # its name, and when it was last used (just now)
    assert row.info.last_used_at is not None
    assert row.digest not in page  # the form names the token by its prefix, as the API does
    client.post("/accounts/tokens/", {"revoke": row.token_key})
    assert api.get("/api/v1/me/").status_code == 401
    assert token not in client.get("/accounts/tokens/").content.decode()


def test_pages_need_login(client):
    assert client.get("/accounts/tokens/").status_code == 302
    assert client.get("/accounts/profile/").status_code == 302


def test_a_password_change_revokes_every_api_token(client, user):
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    _instance, token = AuthToken.objects.create(user=user, expiry=None)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/me/").status_code == 200
    client.force_login(user)
    client.post("/accounts/reauthenticate/", {"password": "a-long-password-1"})
    r = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": "a-long-password-1",
            "password1": "another-long-password-2",
            "password2": "another-long-password-2",
        },
    )
    assert r.status_code == 302, r.content[:500]
    assert not AuthToken.objects.filter(user=user).exists()
    assert api.get("/api/v1/me/").status_code == 401


def test_the_profile_page_writes_only_its_own_fields(client, user):
    """The profile page's form, like the API, does not write back over a vacation started after
    the page's request read the profile (form.save() wrote the whole profile it had read)."""
    from django.db.models.signals import pre_save

    from accounts.models import Profile

    until = timezone.now() + timedelta(days=3)

    def meanwhile(sender, instance, **kwargs):
        Profile.objects.filter(pk=instance.pk).update(vacation_until=until)

    client.force_login(user)
    form = {
        "display_name": "Pagey",
        "timezone": "Asia/Tokyo",
        "language": "en",
        "notification_mode": "every_turn",
        "reminder_fraction": "0.8",
    }
    pre_save.connect(meanwhile, sender=Profile)
    try:
        r = client.post("/accounts/profile/", form)
    finally:
        pre_save.disconnect(meanwhile, sender=Profile)
    assert r.status_code == 302, r.content.decode()[:2000]
    user.profile.refresh_from_db()
    assert (user.profile.display_name, user.profile.timezone) == ("Pagey", "Asia/Tokyo")
    assert user.profile.vacation_until == until
