"""The installable site (``config/pwa.py``): the web app manifest names the site in the reader's
language (English and Japanese: the browser's language, or a signed-in player's profile) with
icons that exist, and every page links it; the service worker is served from the root with the
scope of the whole site, never cached long, showing the notices and opening their game."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "name", "description"),
    [
        ("en", "Power Grid", "Power Grid by email and on the web: your turns, when they come."),
        ("ja", "電力会社", "メールとウェブで遊ぶ電力会社:手番が来たらお知らせします。"),
    ],
)
def test_the_manifest_in_the_readers_language(django_user_model, lang, name, description):
    anonymous = Client(HTTP_ACCEPT_LANGUAGE=lang)
    player = Client()
    user = django_user_model.objects.create_user(
        f"pwa{lang}", f"pwa{lang}@example.com", "pw-123456789"
    )
    user.profile.language = lang
    user.profile.save()
    player.force_login(user)
    for c in (anonymous, player):
        r = c.get("/manifest.webmanifest")
        assert r.status_code == 200
        assert r["Content-Type"] == "application/manifest+json"
        doc = json.loads(r.content.decode())
        assert (doc["name"], doc["short_name"], doc["lang"]) == (name, name, lang)
        assert doc["description"] == description
        assert (doc["start_url"], doc["scope"], doc["display"]) == ("/", "/", "standalone")
        sizes = {i["sizes"] for i in doc["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in doc["icons"]:
            assert finders.find(icon["src"].split("/static/", 1)[1].split("?")[0]) is not None
    assert 'rel="manifest" href="/manifest.webmanifest"' in player.get("/").content.decode()


def test_the_service_worker_is_served_from_the_root():
    r = Client().get("/sw.js")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/javascript")
    assert r["Service-Worker-Allowed"] == "/"
    assert r["Cache-Control"] == "no-cache"
    code = r.content.decode()
    for listener in ("push", "notificationclick"):
        assert f'self.addEventListener("{listener}"' in code
    assert "showNotification" in code
    assert Client().post("/sw.js").status_code == 405
