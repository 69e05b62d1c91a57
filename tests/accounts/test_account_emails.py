"""allauth's emails (password reset, address confirmation) name the site and speak Japanese."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.i18n_helpers import ensure_compiled

pytestmark = pytest.mark.django_db


def _reset_and_signup(client: Client, *, hana_language: str = "en") -> list:
    hana = get_user_model().objects.create_user(
        username="hana", email="hana@example.com", password="pw-hana-123456"
    )
    hana.profile.language = hana_language
    hana.profile.save()
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
    reset, confirm = _reset_and_signup(Client(HTTP_ACCEPT_LANGUAGE="ja"), hana_language="ja")
    assert "パスワード" in reset.subject
    assert "電力会社からのお知らせです。" in reset.body
    assert "パスワードを再設定する" in reset.body
    assert "電力会社をご利用いただきありがとうございます。" in confirm.body
    assert "確認" in confirm.subject
    for m in (reset, confirm):
        # The product name in front, as in the game emails' subjects (【電力会社】ゲーム #12 ...).
        assert m.subject.startswith("【電力会社】")
        assert "[Power Grid]" not in m.subject


def test_password_reset_follows_the_profile_language_not_the_browser():
    ensure_compiled()
    user = get_user_model().objects.create_user(
        username="kenji", email="kenji@example.com", password="pw-kenji-123456"
    )
    user.profile.language = "ja"
    user.profile.save()
    # Someone with an English browser asks for Kenji's reset: Kenji reads Japanese.
    Client(HTTP_ACCEPT_LANGUAGE="en").post(
        "/accounts/password/reset/", {"email": "kenji@example.com"}
    )
    (m,) = mail.outbox
    assert m.subject.startswith("【電力会社】")
    assert "パスワード" in m.subject
    assert "パスワードを再設定する" in m.body
    mail.outbox.clear()
    # And the other way round: an English profile gets English from a Japanese browser.
    user.profile.language = "en"
    user.profile.save()
    Client(HTTP_ACCEPT_LANGUAGE="ja").post(
        "/accounts/password/reset/", {"email": "KENJI@example.com"}
    )
    (m,) = mail.outbox
    assert m.subject.startswith("[Power Grid] ")
    assert "Password Reset" in m.subject or "password" in m.subject.lower()
    assert "パスワード" not in m.body


def test_confirmation_email_follows_the_profile_language():
    """An address added later is confirmed in the account's language, whatever the page's."""
    ensure_compiled()
    from allauth.account.models import EmailAddress

    user = get_user_model().objects.create_user(
        username="mio", email="mio@example.com", password="pw-mio-123456"
    )
    user.profile.language = "ja"
    user.profile.save()
    addr = EmailAddress.objects.create(user=user, email="mio2@example.com", verified=False)
    from django.test import RequestFactory
    from django.utils import translation

    request = RequestFactory().get("/")
    request.user = user
    with translation.override("en"):
        addr.send_confirmation(request)
    (m,) = mail.outbox
    assert m.subject.startswith("【電力会社】")
    assert "電力会社をご利用いただきありがとうございます。" in m.body


def test_the_adapter_is_installed():
    from allauth.account.adapter import get_adapter

    from accounts.adapter import AccountAdapter

    assert isinstance(get_adapter(), AccountAdapter)
