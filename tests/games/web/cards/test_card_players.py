"""The players' card: a panel per seat in player order; the reader's own money shown to them
only."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.players import players_card

pytestmark = pytest.mark.django_db


def test_a_panel_per_seat_and_money_for_its_player_only(started_game):
    game, users = started_game(3)
    view = view_for(game, users[0])
    card = players_card(view)
    assert len(card["panels"]) == 3
    mine = [p for p in card["panels"] if p["is_you"]]
    assert len(mine) == 1
    assert mine[0]["seat"] == 0
    assert mine[0]["money"] == 50
    assert all(p["money"] is None for p in card["panels"] if not p["is_you"])
    assert card["mail_down"] is None
    html = render_card("players", view, card)
    assert html.count('<li class="player') == 3
    assert "50 Elektro" in html


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_seat_the_bot_plays_says_why_to_everyone(started_game, django_user_model, lang):
    """A player who left, and one whose missed deadlines gave the bot their seat: their panel
    says so, to the other players and to a watcher alike (a tournament's table takes no
    substitutes: the seat card then lists nothing, the panel still tells); a seat played by
    its person says nothing of the kind."""
    from django.utils import translation

    from games.models import Seat

    game, users = started_game(3)
    Seat.objects.filter(game=game, seat=1).update(offered="left", bot_controlled=True)
    Seat.objects.filter(game=game, seat=2).update(offered="timed_out", bot_controlled=True)
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw-12345678")
    with translation.override(lang):
        left = translation.gettext("left: the bot plays this seat")
        missed = translation.gettext("missed deadlines: the bot plays this seat")
    for reader in (users[0], watcher):
        view = view_for(game, reader)
        card = players_card(view)
        assert (card["bot_left"], card["bot_timed_out"]) == ({1}, {2})
        with translation.override(lang):
            html = render_card("players", view, card)
        panels = html.split('<li class="player')[1:]
        seat_of = {int(p.split('data-seat="')[1].split('"')[0]): p for p in panels}
        assert left in seat_of[1]
        assert missed not in seat_of[1]
        assert missed in seat_of[2]
        assert left not in seat_of[0]
        assert missed not in seat_of[0]
