"""A NUL character (U+0000) in a page's address or form is refused, never a 500: PostgreSQL
stores no NUL in text, so it must not get as far as a query."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_player_page_for_a_name_with_a_nul_is_not_found():
    assert Client().get("/players/a%00b/").status_code == 404


def test_a_chat_message_with_a_nul_is_refused_with_the_reason(new_game):
    from games.models import ChatMessage

    gid, ps = new_game(players=2)
    c = Client()
    c.force_login(ps[0].user)
    r = c.post(f"/games/{gid}/chat/", {"text": "hi\x00there"}, follow=True)
    assert r.status_code == 200
    assert "control characters" in r.content.decode()
    assert not ChatMessage.objects.exists()
