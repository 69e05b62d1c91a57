"""Sign-up as a newcomer meets it: allauth's pages in the site's words ("Sign up", "Log in", as
the menu says them), the confirmation email naming the address the server really runs at
(SITE_URL, which `make run` sets from PORT: it said 127.0.0.1:8000 on any port), and in
development, right after sign-up, where that email is (the mailbox page)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8301"


def _signup(client: Client, name: str) -> object:
    return client.post(
        "/accounts/signup/",
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": "a-long-password-9",
            "password2": "a-long-password-9",
        },
        follow=True,
    )


@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/login/"])
def test_the_entrance_pages_use_the_sites_words(path):
    html = Client().get(path).content.decode()
    for allauth_word in ("Sign Up", "Sign In", "sign in", "Signup"):
        assert allauth_word not in html, allauth_word
    assert "Sign up" in html
    assert "Log in" in html


def test_in_japanese_too():
    html = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/accounts/signup/").content.decode()
    assert "ユーザー登録" not in html  # allauth's word for it
    assert "登録" in html
    assert "ログイン" in html


def test_the_confirmation_email_names_the_site_url(settings):
    settings.SITE_URL = SITE
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    _signup(Client(HTTP_HOST="localhost"), "porter")
    (msg,) = [m for m in mail.outbox if "porter@example.com" in m.to]
    assert f"{SITE}/accounts/confirm-email/" in msg.body
    assert "127.0.0.1:8301" in msg.body
    assert "8000" not in msg.body
    assert "localhost" not in msg.body


def test_after_sign_up_in_development_the_page_says_where_the_email_is(settings):
    settings.DEBUG = True
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    html = _signup(Client(), "newbie").content.decode()
    assert 'href="/dev/mailbox/"' in html
    assert "confirmation email" in html


def test_without_debug_it_says_nothing_of_a_mailbox(settings):
    settings.DEBUG = False
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    html = _signup(Client(), "prodnewbie").content.decode()
    assert "/dev/mailbox/" not in html
