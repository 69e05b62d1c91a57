"""allauth's emails (password reset, address confirmation) name the site and speak Japanese."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.i18n_helpers import ensure_compiled

pytestmark = pytest.mark.django_db


def _reset_and_signup(client: Client) -> list:
    get_user_model().objects.create_user(
        username="hana", email="hana@example.com", password="pw-hana-123456"
    )
    client.post("/accounts/password/reset/", {"email": "hana@example.com"})
    client.post(
        "/accounts/signup/",
        {
            "username": "yuki",
            "email": "yuki@example.com",
            "password1": "a-long-password-2",
            "password2": "a-long-password-2",
        },
    )
    assert len(mail.outbox) == 2
    return mail.outbox


def test_account_emails_name_the_site():
    for m in _reset_and_signup(Client()):
        assert "example.com]" not in m.subject
        assert m.subject.startswith("[Power Grid] ")
        assert "Hello from Power Grid!" in m.body
        assert "Hello from example.com" not in m.body


def test_account_emails_in_japanese():
    ensure_compiled()
    reset, confirm = _reset_and_signup(Client(HTTP_ACCEPT_LANGUAGE="ja"))
    assert "パスワード" in reset.subject
    assert "電力会社からのお知らせです。" in reset.body
    assert "パスワードを再設定する" in reset.body
    assert "電力会社をご利用いただきありがとうございます。" in confirm.body
    assert "確認" in confirm.subject
