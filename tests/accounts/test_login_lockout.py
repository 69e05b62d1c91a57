"""Failed logins are counted once for the whole site: after five wrong passwords for a name, the
web login, the API's token login and the admin's login all refuse it for a while, even with the
right password (allauth's limit, shared keys)."""

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
