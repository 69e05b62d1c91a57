"""Passwords: Argon2id with one lane (accounts/hashers.py), and an old hash upgraded at log-in.

The test settings use MD5 for speed (tests/conftest.py); these tests put the site's own list
back (config/settings.py as deployed)."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, identify_hasher, make_password
from django.test import Client

PASSWORD = "pw-hash-123456"
pytestmark = pytest.mark.django_db


@pytest.fixture
def site_hashers(settings):
    deployed = importlib.import_module("config.settings").PASSWORD_HASHERS
    settings.PASSWORD_HASHERS = deployed
    return deployed


def test_the_site_hashes_with_argon2id_in_one_lane(site_hashers):
    assert site_hashers[0] == "accounts.hashers.Argon2idHasher"
    encoded = make_password(PASSWORD)
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$"), encoded
    assert check_password(PASSWORD, encoded)
    assert not check_password(PASSWORD + "x", encoded)


@pytest.mark.parametrize(
    "old",
    [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",  # every password before this change
        "django.contrib.auth.hashers.Argon2PasswordHasher",  # Django's Argon2 parameters
    ],
)
def test_an_old_hash_still_logs_in_and_is_hashed_again(site_hashers, old):
    from django.utils.module_loading import import_string

    user = get_user_model().objects.create_user("olduser", "old@example.com")
    user.password = make_password(PASSWORD, hasher=import_string(old)())
    user.save(update_fields=["password"])
    before = user.password
    c = Client()
    r = c.post("/accounts/login/", {"login": "olduser", "password": PASSWORD})
    assert r.status_code == 302
    user.refresh_from_db()
    assert user.password != before
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert identify_hasher(user.password).__class__.__name__ == "Argon2idHasher"
    # And the new hash logs in as well.
    assert (
        Client().post("/accounts/login/", {"login": "olduser", "password": PASSWORD}).status_code
        == 302
    )
