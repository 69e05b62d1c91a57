"""Deadlines in a calendar: the secret feed and the per-game download, read back with a real
iCalendar parser; the feed follows the turns, a new address revokes the old one, and nothing
secret is in it."""

from __future__ import annotations

import icalendar
import pytest

pytestmark = pytest.mark.django_db


def _events(body: bytes) -> list[icalendar.Event]:
    cal = icalendar.Calendar.from_ical(body)
    return list(cal.walk("VEVENT"))


def _feed_url(client, user) -> str:
    client.force_login(user)
    # A new address outlives the session: it asks for the password again (accounts.reauth).
    client.post("/accounts/reauthenticate/", {"password": "pw-web-123456"})
    r = client.post("/accounts/profile/calendar/")
    assert r.status_code == 302
    user.profile.refresh_from_db()
    return f"/calendar/{user.profile.calendar_token}.ics"


def test_the_feed_lists_the_deadline_in_the_users_zone_and_follows_the_turns(
    started_game, make_user, client
):
    from webhelpers import actor, fresh, legal_for, play

    game, users = started_game()
    first = actor(game, users)
    first.profile.timezone = "Asia/Tokyo"
    first.profile.save()
    url = _feed_url(client, first)
    client.logout()  # calendar apps do not log in
    r = client.get(url)
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/calendar")
    (ev,) = _events(r.content)
    seat = fresh(game).seats.get(user=first)
    assert ev.decoded("dtstart") == seat.deadline.replace(microsecond=0)
    assert str(ev.decoded("dtstart").tzinfo) == "Asia/Tokyo"
    assert f"#{game.pk}" in str(ev["summary"])
    assert b"VTIMEZONE" in r.content
    # The move is made: no deadline of this user's is awaited any more.
    entry = legal_for(game, first)["choose_plant"]
    plant = entry["plants"][0]
    play(game, first, {"type": "choose_plant", "plant": plant["number"], "bid": plant["min_bid"]})
    assert _events(client.get(url).content) == []


def test_a_new_address_revokes_the_old_one_and_off_turns_it_off(started_game, client):
    _game, users = started_game()
    old = _feed_url(client, users[0])
    new = _feed_url(client, users[0])
    assert old != new
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200
    client.post("/accounts/profile/calendar/", {"action": "off"})
    assert client.get(new).status_code == 404
    assert client.get("/calendar/short.ics").status_code == 404


def test_the_game_download_is_for_its_players_and_holds_no_secret(started_game, make_user, client):
    from webhelpers import actor

    game, users = started_game()
    first = actor(game, users)
    client.force_login(first)
    r = client.get(f"/games/{game.pk}/calendar.ics")
    assert r.status_code == 200
    assert "attachment" in r["Content-Disposition"]
    assert len(_events(r.content)) == 1
    text = r.content.decode()
    assert "Elektro" not in text
    assert str(game.seed) not in text
    client.force_login(make_user())
    assert client.get(f"/games/{game.pk}/calendar.ics").status_code == 404


def test_the_profile_page_offers_the_calendar_in_japanese(make_user, client):
    user = make_user(language="ja")
    client.force_login(user)
    client.cookies["django_language"] = "ja"
    page = client.get("/accounts/profile/").content.decode()
    assert "カレンダー" in page
