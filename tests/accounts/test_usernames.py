"""A username that reads as an existing one (another case, full-width letters) is refused at
sign-up, so nobody can pose as another player; usernames are stored NFKC-normalised."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


def _signup(username: str, email: str):
    return Client().post(
        "/accounts/signup/",
        {
            "username": username,
            "email": email,
            "password1": "a-long-password-1",
            "password2": "a-long-password-1",
        },
    )


@pytest.mark.parametrize("lookalike", ["Alice", "ALICE", "ａｌｉｃｅ", "Ａｌｉｃｅ"])
def test_a_lookalike_of_an_existing_name_is_refused(lookalike):
    get_user_model().objects.create_user("alice", "alice@example.com", "a-long-password-1")
    r = _signup(lookalike, "other@example.com")
    assert r.status_code == 200  # the form again, with the error
    text = r.content.decode()
    assert "already exists" in text or "too close to an existing one" in text
    assert get_user_model().objects.count() == 1


def test_a_full_width_name_is_stored_in_its_normal_form():
    r = _signup("ｂｏｂ２", "bob@example.com")
    assert r.status_code == 302, r.content.decode()[:300]
    assert get_user_model().objects.filter(username="bob2").exists()


def test_a_name_equal_once_case_folded_is_refused_too():
    """ "straße" folds to "strasse": the database's case-insensitive match does not see it."""
    get_user_model().objects.create_user("strasse", "s@example.com", "a-long-password-1")
    r = _signup("straße", "t@example.com")
    assert "too close to an existing one" in r.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("fake", ["Воb", "ВОВ", "bоb"])
def test_a_name_in_look_alike_letters_of_another_alphabet_is_refused(fake):
    """Cyrillic В and о read as Latin B and o: "Воb" would pass for "bob"."""
    get_user_model().objects.create_user("bob", "bob@example.com", "a-long-password-1")
    text = _signup(fake, "fake@example.com").content.decode()
    assert "too close to an existing one" in text or "mixes alphabets" in text
    assert get_user_model().objects.count() == 1


def test_a_name_mixing_alphabets_is_refused_even_when_free():
    text = _signup("pаypal", "p@example.com").content.decode()  # a Cyrillic а
    assert "mixes alphabets" in text
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("name", ["Алиса", "田中bob", "Ελένη", "José"])
def test_names_in_one_alphabet_or_with_japanese_are_welcome(name):
    r = _signup(name, "n@example.com")
    assert r.status_code == 302, r.content.decode()[:300]


def test_a_renamed_user_keeps_the_key_in_step():
    """An admin renames "carol" to "dave": the key follows, so "carol" is free again."""
    user = get_user_model().objects.create_user("carol", "c@example.com", "a-long-password-1")
    user.username = "dave"
    user.save()
    assert user.profile.__class__.objects.get(user=user).username_key == "dave"
    assert _signup("carol", "e@example.com").status_code == 302


@pytest.mark.parametrize("wanted", ["alice", "ALICE", "Аlice"])
def test_a_username_that_reads_as_a_players_display_name_is_refused(wanted):
    """mallory shows herself as "Alice" (a display name is free when nobody has that username);
    a newcomer who then signs up as "alice" would look like her on every page: refused, in any
    case or look-alike letters."""
    mallory = get_user_model().objects.create_user("mallory", "m@example.com", "a-long-pass-1")
    client = Client()
    client.force_login(mallory)
    r = client.patch("/api/v1/me/", {"display_name": "Alice "}, content_type="application/json")
    assert r.status_code == 200, r.content
    text = _signup(wanted, "alice@example.com").content.decode()
    assert "too close to an existing one" in text or "mixes alphabets" in text
    assert get_user_model().objects.count() == 1


def test_a_display_name_given_up_frees_the_username():
    """The key follows the name: once mallory shows herself as "Mal" again, "alice" is free."""
    mallory = get_user_model().objects.create_user("mallory", "m@example.com", "a-long-pass-1")
    profile = mallory.profile
    profile.display_name = "alice"
    profile.save()
    profile.display_name = "Mal"
    profile.save(update_fields=["display_name"])
    assert profile.__class__.objects.get(pk=profile.pk).display_name_key == "mal"
    assert _signup("alice", "alice@example.com").status_code == 302
