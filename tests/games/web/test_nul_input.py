"""A NUL character (U+0000) in a page's address or form is refused, never a 500: PostgreSQL
stores no NUL in text, so it must not get as far as a query."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/players/a%00b/",
        "/calendar/" + "a" * 30 + "%00.ics",
        "/games/1/invite/" + "a" * 30 + "%00/",
        "/mail/go/" + "a" * 30 + "%00/",
    ],
)
def test_an_address_with_a_nul_is_not_found(path):
    """Refused before routing (config.middleware.CommonMiddleware): a calendar address with a
    NUL reached its query and answered 500."""
    assert Client().get(path).status_code == 404


def test_an_api_address_with_a_nul_is_a_json_404():
    r = Client().get("/api/v1/players/a%00b/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_a_chat_message_with_a_nul_is_refused_with_the_reason(new_game):
    from games.models import ChatMessage

    gid, ps = new_game(players=2)
    c = Client()
    c.force_login(ps[0].user)
    r = c.post(f"/games/{gid}/chat/", {"text": "hi\x00there"}, follow=True)
    assert r.status_code == 200
    assert "control characters" in r.content.decode()
    assert not ChatMessage.objects.exists()
