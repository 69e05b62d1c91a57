"""A new account keeps the language its sign-up page was shown in."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


def _signup(client: Client, name: str) -> None:
    r = client.post(
        "/accounts/signup/",
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": "a-long-password-9",
            "password2": "a-long-password-9",
        },
    )
    assert r.status_code == 302


@pytest.mark.parametrize(
    ("accept", "expected"), [("ja", "ja"), ("ja-JP,ja;q=0.9", "ja"), ("de", "en"), ("", "en")]
)
def test_signup_language_from_the_browser(accept, expected):
    _signup(Client(HTTP_ACCEPT_LANGUAGE=accept), "newcomer")
    assert get_user_model().objects.get(username="newcomer").profile.language == expected


def test_signup_language_from_the_switch():
    c = Client()
    c.post("/language/", {"language": "ja", "next": "/accounts/signup/"})
    _signup(c, "switcher")
    assert get_user_model().objects.get(username="switcher").profile.language == "ja"
    assert 'lang="ja"' in c.get("/").content.decode()
