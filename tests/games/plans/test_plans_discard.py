"""A proxy bid may name the plant to give up if winning is one plant too many: the plan runner
makes that discard in the same chain (source ``plan``), and the API checks the plant named. And
a proxy bid names a New Power Plants card by its id (100 + number), with a maximum counted from
the card's number."""

from __future__ import annotations

import pytest
from apihelpers import seat_players

import powergrid
from games.models import Game, Plan
from games.plans.runner import follow
from games.plans.stored import plan_to_json
from powergrid.plans import AutoPass, ProxyBid
from powergrid.plants import NUMBER
from powergrid.state import AUCTION
from tests.engine.helpers import at_phase, with_player

pytestmark = pytest.mark.django_db


def _state(gid: int):
    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _one_plant_too_many_at_stake(gid: int):
    """Round 2's auction, seat order 0, 1, 2: seat 0 opened plant 13 at 13 and seat 1 holds three
    plants (the 3-player limit)."""
    s = at_phase(_state(gid), AUCTION, order=(0, 1, 2))
    s = with_player(s, 1, plants=[3, 4, 5], money=50)
    s = s.replace(market=(6, 7, 8, 13, 20, 21, 22, 23))
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 13, "bid": 13})
    return s


def _give(gid: int, seat: int, plan) -> None:
    game = Game.objects.get(pk=gid)
    Plan.objects.create(game=game, seat=seat, kind=plan.kind, key=getattr(plan, "plant", 0),
                        data=plan_to_json(plan))  # fmt: skip
    game.plans_active = True
    game.save(update_fields=["plans_active"])


def test_the_runner_gives_up_the_named_plant_when_the_proxy_wins(new_game):
    gid, _ps = new_game(players=3)
    s = _one_plant_too_many_at_stake(gid)
    _give(gid, 1, ProxyBid(plant=13, max=20, discard=4))
    for seat in (0, 2):  # the opener drops out when outbid, seat 2 passes
        _give(gid, seat, AutoPass(round=s.round))
    done = follow(Game.objects.get(pk=gid), s)
    won = next(
        i for i, (seat, a) in enumerate(done.moves) if a == {"type": "pass_bid"} and seat == 0
    )
    # Seat 0 dropped out, so seat 1 won 13 at 14, and gave up 4 in the same chain.
    assert done.moves[won + 1] == (1, {"type": "discard_plant", "plant": 4})
    assert done.state.players[1].plants == (3, 5, 13)
    assert done.state.discard is None
    # The proxy acted and its plant left the market: the plan is gone.
    assert not Plan.objects.filter(game_id=gid, seat=1).exists()


def test_without_a_named_discard_the_chain_stops_at_the_owner(new_game):
    gid, _ps = new_game(players=3)
    s = _one_plant_too_many_at_stake(gid)
    _give(gid, 1, ProxyBid(plant=13, max=20))
    for seat in (0, 2):
        _give(gid, seat, AutoPass(round=s.round))
    done = follow(Game.objects.get(pk=gid), s)
    assert done.state.discard == (1, 13)
    assert powergrid.to_act(done.state) == (1,)
    assert all(a["type"] != "discard_plant" for _seat, a in done.moves)


def test_a_discard_not_owned_is_refused_and_nothing_is_kept(new_game):
    gid, ps = new_game(players=3)
    plant = _state(gid).market[0]
    r = ps[0].post(
        f"/api/v1/games/{gid}/plans/",
        {"kind": "proxy_bid", "plant": plant, "max": plant + 5, "discard": 4},
    )
    assert r.status_code == 400
    err = r.json()["error"]
    assert (err["code"], err["details"]["field"]) == ("invalid_plan", "discard")
    assert not Plan.objects.filter(game_id=gid).exists()


def test_a_null_discard_means_ask(new_game):
    gid, ps = new_game(players=3)
    plant = _state(gid).market[0]
    seats = seat_players(gid, ps)
    opener = powergrid.to_act(_state(gid))[0]
    other = next(seat for seat in seats if seat != opener)
    body = {"kind": "proxy_bid", "plant": plant, "max": plant + 5, "discard": None}
    r = seats[other].post(f"/api/v1/games/{gid}/plans/", body)
    assert r.status_code == 200, r.json()
    assert r.json()["plan"] == {"kind": "proxy_bid", "plant": plant, "max": plant + 5}


def test_a_proxy_names_a_new_power_plants_card_by_its_id(new_game):
    gid, ps = new_game(players=3, options={"plant_deck": "new"})
    s = _state(gid)
    card = max(s.market)  # an id above 100
    assert card > 100
    seats = seat_players(gid, ps)
    opener = powergrid.to_act(s)[0]
    other = next(seat for seat in seats if seat != opener)
    url = f"/api/v1/games/{gid}/plans/"
    low = seats[other].post(url, {"kind": "proxy_bid", "plant": card, "max": NUMBER[card] - 1})
    assert low.status_code == 400
    assert low.json()["error"]["details"]["field"] == "max"
    r = seats[other].post(url, {"kind": "proxy_bid", "plant": card, "max": NUMBER[card]})
    assert r.status_code == 200, r.json()
    assert r.json()["plan"]["plant"] == card
