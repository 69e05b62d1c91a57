"""Deadlines are shown in the reader's time zone, with the zone named and how far away they are:
a player in Tokyo and a visitor see the same instant, each on their own clock."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Profile

pytestmark = pytest.mark.django_db


def test_a_player_sees_their_zone_and_a_visitor_utc(started_game, client_for):
    game, users = started_game(3)
    awaited = game.to_act[0]
    seats = {s.seat: s for s in game.seats.all()}
    me = next(u for u in users if u.pk == seats[awaited].user_id)
    Profile.objects.filter(user=me).update(timezone="Asia/Tokyo")
    me.refresh_from_db()
    html = client_for(me).get(f"/games/{game.pk}/").content.decode()
    assert '<span translate="no">JST</span>, in ' in html
    visitor = Client().get(f"/games/{game.pk}/").content.decode()
    assert '<span translate="no">UTC</span>, in ' in visitor
    home = client_for(me).get("/").content.decode()
    assert '<span translate="no">JST</span>, in ' in home  # the home page's "your deadline" too


def test_in_japanese_the_distance_is_japanese_too(started_game, client_for):
    game, users = started_game(3)
    for u in users:
        Profile.objects.filter(user=u).update(language="ja", timezone="Asia/Tokyo")
    html = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert "JST" in html
    assert "時間後" in html or "日後" in html


def test_names_are_isolated_and_escaped_on_pages(started_game, client_for):
    """A right-to-left name or one with markup neither reorders nor breaks the page."""
    game, users = started_game(3)
    Profile.objects.filter(user=users[1]).update(display_name="<b>شيرين</b>")
    html = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert "<bdi>&lt;b&gt;شيرين&lt;/b&gt;</bdi>" in html
    assert "<b>شيرين</b>" not in html


def test_how_far_away_is_not_rounded_down_to_one_unit():
    """A deadline almost two days away does not read "in 1 day"."""
    from datetime import timedelta

    from django.utils import timezone, translation

    from games.templatetags.when import when

    soon = timezone.now() + timedelta(hours=47, minutes=30, seconds=30)
    assert ", in 1\xa0day, 23\xa0hours</time>" in when(soon)
    with translation.override("ja"):
        assert "1日23時間後</time>" in when(soon)  # a span's units are no list: no "、"
