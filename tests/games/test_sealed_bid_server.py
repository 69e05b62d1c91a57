"""The sealed-bid variant through the server: every bidder is asked at once (each gets a turn
notice), a sealed bid's amount is withheld from the move log, the pages and the state of the
others until the last is in, and shown to all afterwards."""

from __future__ import annotations

import pytest
from apihelpers import by_moves, leaf_values, open_first_auction, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a turn email and a deadline per turn (round sheets':
    tests/games/sheets/)."""
    return by_moves(new_game)


def _game(new_game):

    gid, ps = new_game(players=3, options={"variant": "sealed_bid"})
    seats = seat_players(gid, ps)
    s, opener, plant = open_first_auction(gid, seats)
    a, b = [x for x in s.order if x != opener]
    return gid, seats, opener, a, b, plant


def test_every_bidder_is_asked_at_once_and_notified(new_game):
    from games.models import Game, Notification

    gid, seats, _opener, a, b, _plant = _game(new_game)
    assert sorted(Game.objects.get(pk=gid).to_act) == sorted([a, b])
    for seat in (a, b):
        st = seats[seat].get(f"/api/v1/games/{gid}/state/").json()
        assert {e["type"] for e in st["legal"]} == {"seal_bid", "pass_bid"}
        assert Notification.objects.filter(
            game_id=gid, recipient=seats[seat].user, kind="turn"
        ).exists()


def test_a_sealed_bid_is_withheld_from_everyone_until_the_last_is_in(new_game, client):
    gid, seats, opener, a, b, plant = _game(new_game)
    secret = plant + 23
    r = seats[a].post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"type": "seal_bid", "amount": secret}, "expected_seq": 1},
    )
    assert r.status_code == 201, r.json()
    for viewer in (opener, b):
        p = seats[viewer]
        log = p.get(f"/api/v1/games/{gid}/moves/").json()
        assert log[-1]["action"] == {"type": "seal_bid"}
        st = p.get(f"/api/v1/games/{gid}/state/").json()
        assert st["auction"]["sealed_in"] == [a]
        assert secret not in list(leaf_values(st))
        client.force_login(p.user)
        page = client.get(f"/games/{gid}/").content.decode()
        assert "sealed answer for plant" in page  # the log line says an answer was given
        assert f">{secret}<" not in page
        assert f" {secret}." not in page
    # The bidder sees its own.
    assert (
        seats[a].get(f"/api/v1/games/{gid}/state/").json()["auction"]["your_sealed_bid"] == secret
    )
    r = seats[b].post(
        f"/api/v1/games/{gid}/moves/", {"action": {"type": "pass_bid"}, "expected_seq": 2}
    )
    assert r.status_code == 201
    log = seats[opener].get(f"/api/v1/games/{gid}/moves/").json()
    assert log[1]["action"] == {"type": "seal_bid", "amount": secret}  # revealed now
    last = seats[opener].get(f"/api/v1/games/{gid}/state/").json()["sealed_last"]
    assert last == {"plant": plant, "winner": a, "price": plant + 1,
                    "bids": {str(opener): plant, str(a): secret}}  # fmt: skip
    client.force_login(seats[b].user)
    page = client.get(f"/games/{gid}/").content.decode()
    assert f"Last sealed auction: plant {plant}" in page


def test_the_create_form_offers_sealed_bids(make_player, client):
    from games.models import Game

    p = make_player()
    client.force_login(p.user)
    assert "House rule: sealed-bid auctions" in client.get("/games/new/").content.decode()
    r = client.post(
        "/games/new/",
        {"map": "germany", "max_players": 3, "turn_hours": 24, "area_mode": "random",
         "sealed_bids": "on", "first_game": "on"},
    )  # fmt: skip
    assert r.status_code == 400 or b"Choose one variant" in r.content
    assert not Game.objects.exists()
