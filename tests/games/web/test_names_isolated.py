"""A player's name is shown isolated from the text around it (``<bdi>`` on pages): a name in a
right-to-left script next to a number ("אבי2 bids 15") would otherwise take the number and
the words beside it into its own direction, and the sentence would read in another order."""

from __future__ import annotations

import re

import pytest
from apihelpers import open_first_auction, seat_players
from django.test import Client

pytestmark = pytest.mark.django_db

RTL_NAME = "אבי2"


def test_every_name_on_the_game_page_during_an_auction_is_isolated(new_game):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _state, opener, _plant = open_first_auction(gid, seats)
    profile = seats[opener].user.profile
    profile.display_name = RTL_NAME
    profile.save()
    c = Client()
    c.force_login(seats[(opener + 1) % 3].user)
    html = c.get(f"/games/{gid}/").content.decode()
    body = html[html.index("<body") :]
    shown = body.count(RTL_NAME)
    isolated = len(re.findall(rf"<bdi>{RTL_NAME}</bdi>|\u2068{RTL_NAME}\u2069", body))
    assert shown >= 3  # the seats, the auction line, the log at least
    assert isolated == shown
