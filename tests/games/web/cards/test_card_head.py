"""The head card: whom the game waits for (each a link), and no forecast on a history page."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.head import head_card
from tests.games.web.webhelpers import play

pytestmark = pytest.mark.django_db


def test_the_head_names_whom_the_game_waits_for(started_game):
    game, users = started_game(3)
    first = game.to_act[0]
    view = view_for(game, users[first])
    card = head_card(view)
    assert card["waiting"] == [view.names[first]]
    assert card["waiting_people"] == [view.person(first)]
    assert card["acted"] == []
    html = render_card("head", view, card)
    assert f'href="/players/{users[first].username}/"' in html
    assert "Waiting for" in html
    play(game, users[first], {"type": "choose_plant", "plant": 6, "bid": 6})
    assert head_card(view_for(game, users[first], history_seq=1))["forecast"] is None


def test_next_game_waiting_links_the_nearest_other_game(started_game):
    """The reader's other game awaiting their move is linked, with how many wait; none when the
    only game waiting is this one."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat
    from games.web.cards.head import head_card

    game, users = started_game(2)
    first = game.to_act[0]
    me = users[first]
    assert head_card(view_for(game, me))["next_waiting"] is None
    later, sooner = started_game(2), started_game(2)
    for g, _us in (later, sooner):
        seat = g.to_act[0]
        Seat.objects.filter(game=g, seat=seat).update(user=me)
        Seat.objects.filter(game=g).exclude(seat=seat).update(user=users[1 - first])
    now = timezone.now()
    Seat.objects.filter(game=later[0], user=me).update(deadline=now + timedelta(hours=20))
    Seat.objects.filter(game=sooner[0], user=me).update(deadline=now + timedelta(hours=2))
    card = head_card(view_for(game, me))
    assert card["next_waiting"] == {"game_id": sooner[0].pk, "count": 2}
    assert "Next game waiting (2)" in render_card("head", view_for(game, me), card)


def test_the_next_game_link_in_japanese(started_game):
    from datetime import timedelta

    from django.utils import timezone, translation

    from games.models import Seat
    from games.web.cards.head import head_card

    game, users = started_game(2)
    first = game.to_act[0]
    me = users[first]
    other, _us = started_game(2)
    Seat.objects.filter(game=other, seat=other.to_act[0]).update(
        user=me, deadline=timezone.now() + timedelta(hours=3)
    )
    Seat.objects.filter(game=other).exclude(seat=other.to_act[0]).update(user=users[1 - first])
    view = view_for(game, me)
    card = head_card(view)
    assert card["next_waiting"] == {"game_id": other.pk, "count": 1}
    with translation.override("ja"):
        html = render_card("head", view, card)
    assert f'href="/games/{other.pk}/">次の手番待ちのゲーム（1）</a>' in html
    assert "Next game waiting" not in html
