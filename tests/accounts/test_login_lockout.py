"""Failed logins are counted once for the whole site, per (name, client address): after five
wrong passwords for a name from one address, the web login, the API's token login and the
admin's login all refuse that name from that address for a while, even with the right password
(allauth's limit, shared keys). From another address the owner still logs in: a stranger cannot
lock a player out. The owner is told by email, once per window, when the name is being guessed."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db

PASSWORD = "right-pw-12345"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "locky", "locky@example.com", PASSWORD, is_staff=True, is_superuser=True
    )


def _token(client: APIClient, password: str):
    return client.post(
        "/api/v1/auth/token/", {"username": "locky", "password": password}, format="json"
    )


def test_wrong_token_logins_lock_the_name_out_everywhere(staff):
    api = APIClient()
    assert [_token(api, "wrong").status_code for _ in range(5)] == [401] * 5
    r = _token(api, PASSWORD)
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "throttled"
    web = Client()
    r = web.post("/accounts/login/", {"login": "locky", "password": PASSWORD})
    assert "_auth_user_id" not in web.session  # the web login refuses it too
    r = Client().post("/admin/login/", {"username": "locky", "password": PASSWORD})
    assert r.status_code == 200  # the form again, with the error
    assert "Too many failed logins" in r.content.decode()


def test_wrong_admin_logins_lock_the_token_login(staff):
    admin = Client()
    for _ in range(5):
        r = admin.post("/admin/login/", {"username": "locky", "password": "wrong"})
        assert r.status_code == 200
    assert _token(APIClient(), PASSWORD).status_code == 429


def test_a_right_password_before_the_limit_still_works(staff):
    api = APIClient()
    for _ in range(3):
        _token(api, "wrong")
    assert _token(api, PASSWORD).status_code == 200
    r = Client().post("/admin/login/", {"username": "locky", "password": PASSWORD})
    assert r.status_code == 302  # into the admin


STRANGER = "203.0.113.66"
OWNER = "198.51.100.7"


def _web_login(password: str, addr: str) -> Client:
    web = Client(REMOTE_ADDR=addr)
    web.post("/accounts/login/", {"login": "locky", "password": password})
    return web


def test_a_strangers_guesses_do_not_lock_the_owner_out(staff):
    for _ in range(8):
        _token(APIClient(REMOTE_ADDR=STRANGER), "wrong")
        _web_login("wrong", STRANGER)
    # The stranger's address is refused even with the right password...
    assert _token(APIClient(REMOTE_ADDR=STRANGER), PASSWORD).status_code == 429
    assert "_auth_user_id" not in _web_login(PASSWORD, STRANGER).session
    # ...the owner, elsewhere, is not: web, API and admin.
    assert "_auth_user_id" in _web_login(PASSWORD, OWNER).session
    assert _token(APIClient(REMOTE_ADDR=OWNER), PASSWORD).status_code == 200
    r = Client(REMOTE_ADDR=OWNER).post("/admin/login/", {"username": "locky", "password": PASSWORD})
    assert r.status_code == 302


def test_a_rotated_forwarded_for_header_is_the_same_stranger(staff, settings):
    """Counted by the connection's address (no trusted proxy): writing another X-Forwarded-For
    each time does not give a stranger a fresh count."""
    settings.TRUSTED_PROXIES = 0
    codes = [
        _token(
            APIClient(REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=f"192.0.2.{i}"), "wrong"
        ).status_code
        for i in range(7)
    ]
    assert codes == [401] * 5 + [429] * 2


def test_the_owner_is_told_once_when_the_name_is_being_guessed(staff, settings):
    from django.core import mail

    settings.LOGIN_GUESS_ALERT_AFTER = 6
    for i in range(12):  # from many addresses, web and API
        addr = f"203.0.113.{i}"
        _token(APIClient(REMOTE_ADDR=addr), "wrong")
        _web_login("wrong", addr)
    told = [m for m in mail.outbox if "locky@example.com" in m.to]
    assert len(told) == 1, [m.subject for m in mail.outbox]
    assert "trying to log in" in told[0].subject
    assert "203.0.113." in told[0].body  # where the guesses come from
    assert "cannot lock you out" in told[0].body


def test_a_few_mistakes_tell_nobody_and_unknown_names_are_not_counted(staff, settings):
    from django.core import mail

    settings.LOGIN_GUESS_ALERT_AFTER = 6
    for _ in range(3):
        _token(APIClient(REMOTE_ADDR=OWNER), "wrong")
    for i in range(10):
        APIClient(REMOTE_ADDR=f"203.0.113.{i}").post(
            "/api/v1/auth/token/", {"username": "nobody-here", "password": "x"}, format="json"
        )
    assert mail.outbox == []
