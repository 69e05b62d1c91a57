"""Leaving and substitutes through the pages' forms: leaving needs its box ticked, seeking and
withdrawing, taking an offered seat; the lobby lists the offered seats; refusals are messages."""

from __future__ import annotations

import pytest

from games.models import Seat

pytestmark = pytest.mark.django_db


def test_leave_seek_and_take_through_the_pages(started_game, client, django_user_model):
    game, users = started_game(3)
    client.force_login(users[0])
    r = client.post(f"/games/{game.pk}/resign/", {})
    assert r.status_code == 302
    assert Seat.objects.get(game=game, seat=0).offered == ""  # the box was not ticked
    r = client.post(f"/games/{game.pk}/resign/", {}, follow=True)
    assert "Tick the box to confirm that you leave the game." in r.content.decode()
    r = client.post(f"/games/{game.pk}/seeking/", {"seeking": "yes"})
    assert Seat.objects.get(game=game, seat=0).offered == "seeking"
    r = client.post(f"/games/{game.pk}/seeking/", {"seeking": "no"})
    assert Seat.objects.get(game=game, seat=0).offered == ""
    r = client.post(f"/games/{game.pk}/resign/", {"confirm": "yes"}, follow=True)
    assert "You have left the game" in r.content.decode()
    assert Seat.objects.get(game=game, seat=0).offered == "left"
    sub = django_user_model.objects.create_user("sub", "sub@example.com", "pw-12345678")
    client.force_login(sub)
    home = client.get("/").content.decode()
    assert "Seats offered to substitutes" in home
    assert f"/games/{game.pk}/#seat" in home
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Take this seat" in page
    r = client.post(f"/games/{game.pk}/substitute/", {"seat": "1"}, follow=True)
    assert "not offered to substitutes" in r.content.decode()
    r = client.post(f"/games/{game.pk}/substitute/", {"seat": "x"})
    assert r.status_code == 302
    r = client.post(f"/games/{game.pk}/substitute/", {"seat": "0"}, follow=True)
    assert "The seat is yours" in r.content.decode()
    assert Seat.objects.get(game=game, seat=0).user_id == sub.pk
    assert "Seats offered to substitutes" not in client.get("/").content.decode()


def _ja(user):
    user.profile.language = "ja"
    user.profile.save()
    return user


def test_leave_seek_and_take_through_the_pages_in_japanese(started_game, client, django_user_model):
    """The same walk for players whose profile language is Japanese: the card's buttons, its
    confirmation box, every message after a form, the lobby's section and a refusal are in
    Japanese, and no English sentence of theirs is left."""
    game, users = started_game(3)
    client.force_login(_ja(users[0]))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert (
        "今このゲームから退出します。ボットが私の席をプレイし、レーティングでは私が最下位になります。"
        in page
    )
    assert "このゲームから退出する" in page
    assert "代わりのプレイヤーを探す" in page
    assert "Leave this game" not in page
    r = client.post(f"/games/{game.pk}/resign/", {}, follow=True)
    assert "退出を確認するにはチェックを入れてください。" in r.content.decode()
    assert Seat.objects.get(game=game, seat=0).offered == ""
    r = client.post(f"/games/{game.pk}/seeking/", {"seeking": "yes"}, follow=True)
    assert "あなたの席で代わりのプレイヤーを募集しています。" in r.content.decode()
    assert "募集をやめる" in r.content.decode()
    r = client.post(f"/games/{game.pk}/seeking/", {"seeking": "no"}, follow=True)
    assert "代わりのプレイヤーの募集をやめました。" in r.content.decode()
    r = client.post(f"/games/{game.pk}/resign/", {"confirm": "yes"}, follow=True)
    body = r.content.decode()
    assert "ゲームから退出しました。ボットがあなたの席をプレイします。" in body
    assert (
        "あなたはこのゲームから退出しました。代わりのプレイヤーが来るまでボットがあなたの席をプレイします。"
        in body
    )
    assert "You have left" not in body
    sub = _ja(django_user_model.objects.create_user("subja", "subja@example.com", "pw-12345678"))
    client.force_login(sub)
    home = client.get("/").content.decode()
    assert "代わりのプレイヤーを募集中の席" in home
    assert f"/games/{game.pk}/#seat" in home
    assert "Seats offered to substitutes" not in home
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "この席を引き継ぐ" in page
    assert "退出：ボットがこの席をプレイ中" in page
    assert "Take this seat" not in page
    r = client.post(f"/games/{game.pk}/substitute/", {"seat": "1"}, follow=True)
    assert "その席は代わりのプレイヤーを募集していません。" in r.content.decode()
    r = client.post(f"/games/{game.pk}/substitute/", {"seat": "0"}, follow=True)
    assert "この席はあなたのものです。ゲームへようこそ。" in r.content.decode()
    assert Seat.objects.get(game=game, seat=0).user_id == sub.pk
    assert "代わりのプレイヤーを募集中の席" not in client.get("/").content.decode()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_player_who_left_reads_the_game_as_a_watcher_with_no_form_to_play(started_game, lang):
    """After leaving, the page says so and offers nothing to play: no move form even while the
    bot plays their seat's turn, no round sheet, no "your turn"; the API's state has no legal
    move for them and their sheet is 409 ``seat_left`` (GET as PUT)."""
    from django.test import Client

    game, _users = started_game(3)
    seat = game.to_act[0]
    leaver = Seat.objects.get(game=game, seat=seat).user
    leaver.profile.language = lang
    leaver.profile.save()
    client = Client()
    client.force_login(leaver)
    r = client.post(f"/games/{game.pk}/resign/", {"confirm": "yes"})
    assert r.status_code == 302
    Seat.objects.filter(game=game, seat=seat).update(deadline=None)  # the bot has not moved
    page = client.get(f"/games/{game.pk}/").content.decode()
    left = {"en": "You have left this game.", "ja": "あなたはこのゲームから退出しました"}[lang]
    assert left in page
    assert 'name="action"' not in page  # no move form
    assert 'id="sheet-h"' not in page  # no round sheet
    assert 'data-your-turn="1"' not in page
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(leaver)
    state = api.get(f"/api/v1/games/{game.pk}/state/").json()
    assert state["seat"] == seat
    assert state["legal"] == []
    r = api.get(f"/api/v1/games/{game.pk}/sheet/")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "seat_left"
