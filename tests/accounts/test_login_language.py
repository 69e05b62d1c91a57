"""Logging in does not switch a Japanese visitor to a language nobody chose (issue 38).

The rules (``accounts.profiles.language_at_login``): a language the player chose themselves (the
switch, a change on the settings page or through the API: ``Profile.language_chosen``) is kept;
a visitor's choice made with the switch before logging in wins over a language the profile was
merely given (the default, the sign-up page's) and becomes the player's choice; the browser's
language wins only over the untouched default. The pages after logging in, and the profile the
emails read, say the same."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db

PASSWORD = "pw-language-12345"


@pytest.fixture(autouse=True)
def _language_back():
    """A Japanese page activates Japanese in this thread: the next test starts as usual."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _user(name: str, *, language: str = "en", chosen: bool = False):
    user = get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)
    user.profile.language = language
    user.profile.language_chosen = chosen
    user.profile.save(update_fields=["language", "language_chosen"])
    return user


def _log_in(client: Client, user) -> str:
    """Log in through the site's form; the language of the page it leads to."""
    r = client.post("/accounts/login/", {"login": user.username, "password": PASSWORD})
    assert r.status_code == 302, r.content[:300]
    home = client.get(r["Location"]).content.decode()
    return "ja" if '<html lang="ja">' in home else "en" if '<html lang="en">' in home else "?"


def _profile(user) -> tuple[str, bool]:
    user.profile.refresh_from_db()
    return user.profile.language, user.profile.language_chosen


def _switched(client: Client, lang: str) -> Client:
    """The visitor presses the language switch (signed out: only the cookie remembers it)."""
    r = client.post("/language/", {"language": lang, "next": "/"})
    assert r.status_code == 302
    return client


def test_a_visitor_who_chose_japanese_stays_in_japanese():
    user = _user("hana")
    assert _log_in(_switched(Client(), "ja"), user) == "ja"
    assert _profile(user) == ("ja", True)  # their choice: the next log-in, anywhere, keeps it
    assert _log_in(Client(HTTP_ACCEPT_LANGUAGE="en"), user) == "ja"


def test_a_japanese_browser_is_not_switched_to_a_default_nobody_chose():
    user = _user("ken")
    assert _log_in(Client(HTTP_ACCEPT_LANGUAGE="ja-JP,ja;q=0.9,en;q=0.5"), user) == "ja"
    assert _profile(user) == ("ja", False)  # taken (the emails follow it), not chosen


def test_a_language_the_player_chose_wins_over_the_visitor():
    user = _user("ann", language="en", chosen=True)
    assert _log_in(_switched(Client(HTTP_ACCEPT_LANGUAGE="ja"), "ja"), user) == "en"
    assert _profile(user) == ("en", True)


def test_a_language_given_at_sign_up_yields_to_a_choice_not_to_a_browser():
    user = _user("yui", language="ja")  # from a Japanese sign-up page: given, not chosen
    assert _log_in(Client(HTTP_ACCEPT_LANGUAGE="en-GB"), user) == "ja"
    assert _profile(user) == ("ja", False)
    assert _log_in(_switched(Client(), "en"), user) == "en"
    assert _profile(user) == ("en", True)


def test_a_visitor_without_a_word_on_language_keeps_the_profile():
    for lang in ("en", "ja"):
        user = _user(f"quiet{lang}", language=lang)
        assert _log_in(Client(), user) == lang
        assert _profile(user) == (lang, False)


def test_the_switch_and_the_settings_choose_a_language():
    user = _user("mio")
    c = Client()
    c.force_login(user)
    _switched(c, "en")  # the language it already had: pressing the switch is still a choice
    assert _profile(user) == ("en", True)

    other = _user("rin")
    c = Client()
    c.force_login(other)
    form = {
        "display_name": "Rin",
        "timezone": "UTC",
        "language": "en",
        "notification_mode": "every_turn",
        "reminder_fraction": "0.8",
        "invitations": "anyone",
    }
    assert c.post("/accounts/profile/", form).status_code == 302
    assert _profile(other) == ("en", False)  # saved unchanged: nothing chosen
    assert c.post("/accounts/profile/", {**form, "language": "ja"}).status_code == 302
    assert _profile(other) == ("ja", True)


def test_the_api_changes_the_language_as_a_choice():
    from knox.models import AuthToken

    user = _user("sora")
    _instance, token = AuthToken.objects.create(user)
    c = Client(HTTP_AUTHORIZATION=f"Token {token}")
    r = c.patch("/api/v1/me/", {"language": "ja"}, content_type="application/json")
    assert r.status_code == 200, r.content
    assert _profile(user) == ("ja", True)
