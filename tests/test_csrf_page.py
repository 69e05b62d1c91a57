"""A form posted without its CSRF token gets the site's own plain 403 page: no inline style or
script (the Content-Security-Policy would block Django's built-in page's style), both languages,
and nothing changed."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_form_without_its_token_gets_a_plain_page(django_user_model):
    user = django_user_model.objects.create_user("csrf-user", "c@example.com", "pw-123456789")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    r = client.post("/games/new/", {"map": "germany", "max_players": "3"})
    assert r.status_code == 403
    html = r.content.decode()
    assert "This form has expired" in html
    assert "期限切れ" in html
    assert "<style" not in html
    assert "<script" not in html
    assert " style=" not in html
    from games.models import Game

    assert not Game.objects.exists()
