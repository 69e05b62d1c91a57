"""The seat card: a player sees "Leave this game" (with its confirmation box) and "Seek a
substitute"; a player who left sees that the bot plays; someone else sees the seats offered with
"Take this seat"; the forms work without JavaScript, in English and Japanese."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for
from django.utils import translation

from games.models import Seat
from games.web.cards.seat import seat_card

pytestmark = pytest.mark.django_db


def test_a_player_may_leave_or_seek_and_others_may_take_an_offered_seat(
    started_game, django_user_model
):
    game, users = started_game(3)
    view = view_for(game, users[0])
    card = seat_card(view)
    assert card == {"seat_mine": "", "seats_offered": [], "substitutes": True}
    html = render_card("seat", view, card)
    assert 'name="confirm" value="yes" required' in html
    assert "Seek a substitute" in html
    stranger = django_user_model.objects.create_user("stranger", "s@example.com", "pw-12345678")
    assert seat_card(view_for(game, stranger))["seats_offered"] == []
    Seat.objects.filter(game=game, seat=1).update(offered="left", bot_controlled=True)
    card = seat_card(view_for(game, stranger))
    assert [o["seat"] for o in card["seats_offered"]] == [1]
    html = render_card("seat", view_for(game, stranger), card)
    assert "Take this seat" in html
    assert 'name="seat" value="1"' in html
    left = seat_card(view_for(game, users[1]))
    assert left["seat_mine"] == "left"
    assert "You have left this game" in render_card("seat", view_for(game, users[1]), left)
    assert seat_card(view_for(game, None)) == {
        "seat_mine": None,
        "seats_offered": [],
        "substitutes": True,
    }


def test_the_card_in_japanese(started_game):
    game, users = started_game(2)
    view = view_for(game, users[0])
    with translation.override("ja"):
        html = render_card("seat", view, seat_card(view))
    assert "このゲームから退出する" in html
    assert "代わりのプレイヤーを探す" in html
