"""What a session got from an email link (or a shared computer) cannot take the account over:
adding or changing an email address asks for the password again, the old address is told of a
change, and a new password (changed or reset) ends every other session and API token. Nor can it
hand the account's news to the outside for good without the password: a webhook, a calendar
address, the bot account (pages and the API alike; an API token, made with the password, may).
Sign-up answers the same whether or not an address is registered (production verifies
addresses)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, override_settings
from knox.models import AuthToken
from knox.settings import knox_settings

from games.notifications import links
from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-password-1"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def user():
    u = get_user_model().objects.create_user(
        username="owner", email="owner@example.com", password=PASSWORD
    )
    EmailAddress.objects.create(user=u, email=u.email, primary=True, verified=True)  # signed up
    return u


def _login_by_link(user) -> Client:
    url = links.game_link(user=user, game_id=1).split("://", 1)[1]
    url = url[url.index("/") :]
    c = Client()
    assert c.post(url).status_code == 302  # the page's button logs in, once
    assert int(c.session["_auth_user_id"]) == user.pk
    return c


def test_a_link_session_cannot_add_an_email_address_without_the_password(user):
    c = _login_by_link(user)
    r = c.post("/accounts/email/", {"action_add": "", "email": "attacker@evil.example"})
    assert r.status_code == 302
    assert "/reauthenticate/" in r["Location"]
    assert not user.emailaddress_set.filter(email="attacker@evil.example").exists()
    # A wrong password does not get through either.
    c.post("/accounts/reauthenticate/", {"password": "not-it"})
    r = c.post("/accounts/email/", {"action_add": "", "email": "attacker@evil.example"})
    assert "/reauthenticate/" in r["Location"]


def test_a_link_session_cannot_change_the_password_without_the_old_one(user):
    c = _login_by_link(user)
    assert 'name="oldpassword"' in c.get("/accounts/password/change/").content.decode()
    new = "another-long-password-2"
    c.post(
        "/accounts/password/change/", {"oldpassword": "guess", "password1": new, "password2": new}
    )
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


HOOK = "http://127.0.0.1:9/hook"  # never called: these tests only add webhooks


def _token_client(user) -> APIClient:
    _instance, token = AuthToken.objects.create(user=user, expiry=None)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def test_a_link_session_cannot_add_a_webhook_without_the_password(user, settings):
    from games.models import Webhook

    settings.WEBHOOK_ALLOW_PRIVATE = True
    c = _login_by_link(user)
    r = c.post("/webhooks/", {"url": HOOK, "format": "generic"})
    assert r.status_code == 302
    assert "/reauthenticate/" in r["Location"]
    r = c.post("/api/v1/webhooks/", {"url": HOOK}, content_type="application/json")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "reauthentication_required"
    assert r.json()["error"]["details"]["reauthenticate_url"] == "/accounts/reauthenticate/"
    assert not Webhook.objects.exists()
    assert c.get("/webhooks/").status_code == 200  # the list is a page like any other
    # The password given on the page the redirect names, the suspended form is made.
    r = c.post("/webhooks/", {"url": HOOK, "format": "generic"})
    r = c.post(r["Location"], {"password": PASSWORD})
    assert Webhook.objects.filter(owner=user).count() == 1
    r = c.post("/api/v1/webhooks/", {"url": HOOK}, content_type="application/json")
    assert r.status_code == 201, r.content


def test_a_webhook_can_be_deleted_without_the_password(user, settings):
    from games.models import Webhook
    from games.webhooks.services import webhook_create

    settings.WEBHOOK_ALLOW_PRIVATE = True
    hook = webhook_create(owner=user, url=HOOK)
    c = _login_by_link(user)
    assert c.delete(f"/api/v1/webhooks/{hook.pk}/").status_code == 204
    hook = webhook_create(owner=user, url=HOOK)
    assert c.post("/webhooks/", {"op": "delete", "id": hook.pk}).status_code == 302
    assert not Webhook.objects.filter(owner=user).exists()


def test_an_api_token_adds_a_webhook_without_a_session(user, settings):
    """A token is made only with the password (or behind the reauthentication page)."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    r = _token_client(user).post("/api/v1/webhooks/", {"url": HOOK}, format="json")
    assert r.status_code == 201, r.content


def test_a_link_session_cannot_make_a_calendar_address_without_the_password(user):
    c = _login_by_link(user)
    r = c.post("/accounts/profile/calendar/")
    assert "/reauthenticate/" in r["Location"]
    user.profile.refresh_from_db()
    assert user.profile.calendar_token == ""
    user.profile.calendar_token = "a-secret-feed-address-0123"
    user.profile.save()
    r = c.post("/accounts/profile/calendar/")  # nor replace one (the new one would be shown)
    assert "/reauthenticate/" in r["Location"]
    user.profile.refresh_from_db()
    assert user.profile.calendar_token == "a-secret-feed-address-0123"
    c.post("/accounts/profile/calendar/", {"action": "off"})  # turning it off asks nothing
    user.profile.refresh_from_db()
    assert user.profile.calendar_token == ""
    c.post("/accounts/reauthenticate/", {"password": PASSWORD})
    c.post("/accounts/profile/calendar/")
    user.profile.refresh_from_db()
    assert len(user.profile.calendar_token) >= 20


def test_a_link_session_cannot_make_the_account_a_bot_without_the_password(user):
    c = _login_by_link(user)
    assert c.get("/account/bot/").status_code == 200
    r = c.post("/account/bot/", {"confirm": "yes"})
    assert "/reauthenticate/" in r["Location"]
    r = c.post("/api/v1/me/bot/")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "reauthentication_required"
    user.profile.refresh_from_db()
    assert user.profile.bot_account is False
    assert _token_client(user).post("/api/v1/me/bot/").status_code == 200  # a bot's own token
    user.profile.refresh_from_db()
    assert user.profile.bot_account is True


def _make_primary_and_check_the_old_address_is_told(c: Client, user, *, old: str) -> None:
    """The confirmed new@example.com is made primary on the email page: the account's address
    changes and the old one gets a notice naming the new one."""
    mail.outbox.clear()
    r = c.post("/accounts/email/", {"action_primary": "", "email": "new@example.com"})
    assert r.status_code == 302
    user.refresh_from_db()
    assert user.email == "new@example.com"
    (told,) = [m for m in mail.outbox if old in m.to]
    assert "new@example.com" in told.body


def test_the_old_address_is_told_when_the_email_changes(user):
    c = Client()
    c.post("/accounts/login/", {"login": "owner", "password": PASSWORD})
    c.post("/accounts/reauthenticate/", {"password": PASSWORD})
    c.post("/accounts/email/", {"action_add": "", "email": "new@example.com"})
    address = user.emailaddress_set.get(email="new@example.com")
    address.verified = True
    address.save()
    _make_primary_and_check_the_old_address_is_told(c, user, old="owner@example.com")


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded-at-login", "no-record"])
def test_an_account_made_by_an_administrator_is_told_at_its_old_address_too(recorded):
    """No sign-up, so no primary allauth record of the address (``create_user``; logging in
    records it, not primary, when it sends a confirmation): the first address added and
    confirmed does not silently replace it; making it primary tells the old one."""
    made = get_user_model().objects.create_user("made", "made@example.com", PASSWORD)
    c = Client()
    c.post("/accounts/login/", {"login": "made", "password": PASSWORD})
    c.post("/accounts/reauthenticate/", {"password": PASSWORD})
    if not recorded:
        EmailAddress.objects.filter(user=made).delete()
    mail.outbox.clear()
    c.post("/accounts/email/", {"action_add": "", "email": "new@example.com"})
    (confirm,) = [m for m in mail.outbox if "new@example.com" in m.to]
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", confirm.body)
    assert link is not None, confirm.body
    c.post(link.group(1))
    made.refresh_from_db()
    assert made.email == "made@example.com"  # confirmed, not yet the primary address
    _make_primary_and_check_the_old_address_is_told(c, made, old="made@example.com")


def test_a_password_reset_ends_other_sessions_and_api_tokens(user):
    _instance, token = AuthToken.objects.create(user=user, expiry=None)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/me/").status_code == 200
    elsewhere = Client()
    elsewhere.post("/accounts/login/", {"login": "owner", "password": PASSWORD})
    assert elsewhere.get("/accounts/profile/").status_code == 200
    mail.outbox.clear()
    Client().post("/accounts/password/reset/", {"email": "owner@example.com"})
    (link,) = re.findall(r"https?://\S+/password/reset/key/\S+", mail.outbox[0].body)
    c = Client()
    r = c.get(link[link.index("/accounts/") :], follow=True)
    new = "another-long-password-2"
    r = c.post(r.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert r.status_code == 302, r.content[:500]
    assert not AuthToken.objects.filter(user=user).exists()
    assert api.get("/api/v1/me/").status_code == 401
    assert elsewhere.get("/accounts/profile/").status_code == 302  # logged out


def test_a_password_change_ends_other_sessions_but_not_this_one(user):
    here, elsewhere = Client(), Client()
    for c in (here, elsewhere):
        c.post("/accounts/login/", {"login": "owner", "password": PASSWORD})
    new = "another-long-password-2"
    r = here.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
    )
    assert r.status_code == 302
    assert here.get("/accounts/profile/").status_code == 200
    assert elsewhere.get("/accounts/profile/").status_code == 302


def _signup(email: str):
    return Client().post(
        "/accounts/signup/",
        {
            "username": f"u{abs(hash(email)) % 10**6}",
            "email": email,
            "password1": "a-long-password-3",
            "password2": "a-long-password-3",
        },
    )


def test_production_confirms_addresses_so_sign_up_can_answer_alike():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "ACCOUNT_EMAIL_VERIFICATION")}
    env.update(
        DEBUG="False",
        SECRET_KEY="prod-test-" + "k3y" * 20,
        ALLOWED_HOSTS="pg.example",
        PYTHONPATH=str(ROOT),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.ACCOUNT_EMAIL_VERIFICATION, s.ACCOUNT_PREVENT_ENUMERATION)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["mandatory", "True"]


@override_settings(ACCOUNT_EMAIL_VERIFICATION="mandatory")
def test_sign_up_answers_alike_for_a_registered_and_a_new_address(user):
    taken, fresh = _signup("owner@example.com"), _signup("fresh@example.com")
    assert taken.status_code == fresh.status_code == 302
    assert taken["Location"] == fresh["Location"]
    assert get_user_model().objects.filter(email__iexact="owner@example.com").count() == 1
    # The holder of the registered address is told by email, not the person signing up.
    assert any("owner@example.com" in m.to for m in mail.outbox)


def test_the_token_login_stops_at_the_per_user_limit(user):
    limit = knox_settings.TOKEN_LIMIT_PER_USER
    assert limit
    for _ in range(limit):
        AuthToken.objects.create(user=user, expiry=None)
    api = APIClient()
    r = api.post("/api/v1/auth/token/", {"username": "owner", "password": PASSWORD}, format="json")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "permission_denied"
    assert "revoke" in r.json()["error"]["message"]
    assert AuthToken.objects.filter(user=user).count() == limit
    AuthToken.objects.filter(user=user).first().delete()
    r = api.post("/api/v1/auth/token/", {"username": "owner", "password": PASSWORD}, format="json")
    assert r.status_code == 200


def test_the_tokens_page_stops_at_the_limit_too(user):
    for _ in range(knox_settings.TOKEN_LIMIT_PER_USER):
        AuthToken.objects.create(user=user, expiry=None)
    c = Client()
    c.post("/accounts/login/", {"login": "owner", "password": PASSWORD})
    c.post("/accounts/reauthenticate/", {"password": PASSWORD})
    r = c.post("/accounts/tokens/", {"create": "1"}, follow=True)
    assert "revoke one to create another" in r.content.decode()
    assert AuthToken.objects.filter(user=user).count() == knox_settings.TOKEN_LIMIT_PER_USER


def test_the_api_documentation_states_the_token_limit_the_server_enforces():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
    said = re.search(r"holds at most (\d+) tokens", docs)
    assert said is not None
    assert int(said.group(1)) == knox_settings.TOKEN_LIMIT_PER_USER


@pytest.mark.django_db(transaction=True)
def test_a_game_link_logs_in_once_even_when_its_button_is_pressed_twice_at_once(user):
    """Two POSTs of the same link at the same moment (a double click, or a copy of the link
    replayed in a race): one logs in, the other is refused. Both are held just before the
    session is made; with check and use in one step the second never gets that far."""
    import contextlib
    import threading

    from django.contrib.auth import login as django_login

    from games.notifications import views

    url = links.game_link(user=user, game_id=1).split("://", 1)[1]
    url = url[url.index("/") :]
    both_checked = threading.Barrier(2, timeout=3)

    def held_login(*args, **kwargs):
        # Broken: the other one was refused before it got here.
        with contextlib.suppress(threading.BrokenBarrierError):
            both_checked.wait()
        return django_login(*args, **kwargs)

    clients = [Client(), Client()]
    codes: list[int] = []

    def press(c: Client) -> None:
        from django.db import connection

        try:
            codes.append(c.post(url).status_code)
        finally:
            connection.close()

    original = views.login
    views.login = held_login
    try:
        threads = [threading.Thread(target=press, args=(c,)) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        views.login = original
    assert sorted(codes) == [302, 400]
    assert sum("_auth_user_id" in c.session for c in clients) == 1


def test_a_password_set_by_an_administrator_ends_the_api_tokens_too(user, admin_client):
    """The usual answer to "my account was taken over" is an administrator setting a new
    password: the tokens the intruder made must stop working then too, not only after a change
    or reset on the site."""
    _instance, token = AuthToken.objects.create(user=user, expiry=None)
    new = "another-long-password-2"
    r = admin_client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"password1": new, "password2": new, "usable_password": "true"},
    )
    assert r.status_code == 302, r.content[:300]
    user.refresh_from_db()
    assert user.check_password(new)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/me/").status_code == 401
    assert not AuthToken.objects.filter(user=user).exists()


def test_saving_a_user_without_a_new_password_keeps_the_tokens(user):
    AuthToken.objects.create(user=user, expiry=None)
    user.first_name = "Own"
    user.save()
    assert AuthToken.objects.filter(user=user).count() == 1
