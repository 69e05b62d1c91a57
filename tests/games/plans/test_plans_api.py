"""Plans through the API: a proxy bid, two proxies, auto-pass, standing orders, refusals with a
notice, cascades across phases in one move, and secrecy (no other seat ever sees a plan)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from apihelpers import bot_action, leaf_values, seat_players

pytestmark = pytest.mark.django_db


def _snapshot(gid: int):
    import powergrid
    from games.models import Game

    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _move(p, gid: int, action: dict[str, Any]) -> Any:
    seq = p.get(f"/api/v1/games/{gid}/").json()["seq"]
    return p.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})


def _moves(p, gid: int) -> list[dict[str, Any]]:
    return p.get(f"/api/v1/games/{gid}/moves/").json()


def _started(new_game, players: int = 3):
    gid, ps = new_game(players=players)
    seats = seat_players(gid, ps)
    return gid, seats


def _bidding_order(gid: int) -> tuple[int, int, int, int]:
    """The opener of round 1's first auction, the two seats that bid after it in turn, and the
    cheapest plant of the market (worked out with the engine, as the rules give it)."""
    import powergrid

    s = _snapshot(gid)
    opener = powergrid.to_act(s)[0]
    plant = s.market[0]
    s = powergrid.apply(s, opener, {"type": "choose_plant", "plant": plant, "bid": plant})
    second = powergrid.to_act(s)[0]
    s = powergrid.apply(s, second, {"type": "pass_bid"})
    third = powergrid.to_act(s)[0]
    return opener, second, third, plant


def _play_until(gid, seats, stop, limit: int = 400) -> None:
    """Heuristic bots move for every seat until ``stop(state)`` holds."""
    from powergrid.bots import HeuristicBot

    bot = HeuristicBot()
    for _ in range(limit):
        s = _snapshot(gid)
        if stop(s):
            return
        import powergrid

        seat = powergrid.to_act(s)[0]
        r = _move(seats[seat], gid, bot_action(gid, seat, bot))
        assert r.status_code == 201, r.json()
    raise AssertionError("never reached")


def test_a_proxy_bid_bids_the_minimum_for_its_owner_when_their_turn_comes(new_game):
    gid, seats = _started(new_game)
    opener, second, third, plant = _bidding_order(gid)
    r = seats[second].post(
        f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": plant + 5}
    )
    assert r.status_code == 200, r.json()
    assert r.json()["moves_made"] == 0  # not their turn yet
    assert (
        _move(
            seats[opener], gid, {"type": "choose_plant", "plant": plant, "bid": plant}
        ).status_code
        == 201
    )
    last = _moves(seats[third], gid)[-1]
    assert last["seat"] == second
    assert last["source"] == "plan"
    assert last["action"] == {"type": "bid", "amount": plant + 1}
    assert seats[third].get(f"/api/v1/games/{gid}/").json()["to_act"] == [third]


def test_two_proxies_resolve_at_once_to_the_lower_maximum_plus_one(new_game):
    gid, seats = _started(new_game)
    opener, second, third, plant = _bidding_order(gid)
    for seat, top in ((second, plant + 5), (third, plant + 8)):
        body = {"kind": "proxy_bid", "plant": plant, "max": top}
        assert seats[seat].post(f"/api/v1/games/{gid}/plans/", body).status_code == 200
    assert (
        seats[opener]
        .post(f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": plant})
        .status_code
        == 200
    )
    money_before = _snapshot(gid).players[third].money
    r = _move(seats[opener], gid, {"type": "choose_plant", "plant": plant, "bid": plant})
    assert r.status_code == 201
    after = _snapshot(gid)
    assert plant in after.players[third].plants
    assert money_before - after.players[third].money == plant + 6
    # The plans that acted are gone; nobody is left with one.
    from games.models import Plan

    assert not Plan.objects.filter(game_id=gid, kind="proxy_bid", key=plant).exists()
    assert all(m["source"] in ("api", "plan") for m in _moves(seats[opener], gid))


def test_a_proxy_below_the_next_bid_passes(new_game):
    gid, seats = _started(new_game)
    opener, second, _third, plant = _bidding_order(gid)
    seats[second].post(
        f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": plant}
    )
    _move(seats[opener], gid, {"type": "choose_plant", "plant": plant, "bid": plant})
    last = _moves(seats[opener], gid)[-1]
    assert (last["seat"], last["action"], last["source"]) == (second, {"type": "pass_bid"}, "plan")


def test_a_cancelled_proxy_does_not_act(new_game):
    gid, seats = _started(new_game)
    opener, second, _third, plant = _bidding_order(gid)
    p = seats[second]
    p.post(f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": 40})
    r = p.client.delete(f"/api/v1/games/{gid}/plans/proxy_bid/?plant={plant}")
    assert r.status_code == 204
    r = p.client.delete(f"/api/v1/games/{gid}/plans/proxy_bid/?plant={plant}")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "plan_not_found"
    _move(seats[opener], gid, {"type": "choose_plant", "plant": plant, "bid": plant})
    assert _moves(p, gid)[-1]["seat"] == opener
    assert _snapshot(gid).phase == "auction"
    assert p.get(f"/api/v1/games/{gid}/").json()["to_act"] == [second]


def test_a_plan_given_on_ones_own_turn_acts_at_once(new_game):
    gid, seats = _started(new_game)
    opener, second, _third, plant = _bidding_order(gid)
    _move(seats[opener], gid, {"type": "choose_plant", "plant": plant, "bid": plant})
    r = seats[second].post(
        f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": plant + 3}
    )
    assert r.status_code == 200
    assert r.json()["moves_made"] == 1
    last = _moves(seats[second], gid)[-1]
    assert last["action"] == {"type": "bid", "amount": plant + 1}
    # The answer says what the plan did, in the move log's words (as the plans page does).
    name = seats[second].user.profile.display_name or seats[second].user.username
    assert r.json()["acted"] == [
        {"seq": last["seq"], "text": f"{name} bid {plant + 1} for plant {plant}."}
    ]


def test_a_plan_that_waits_for_its_turn_has_done_nothing_yet(new_game):
    gid, seats = _started(new_game)
    _opener, second, _third, plant = _bidding_order(gid)
    r = seats[second].post(
        f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": plant + 3}
    )
    assert r.status_code == 200
    assert (r.json()["moves_made"], r.json()["acted"]) == (0, [])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "steal"}, "kind"),
        ({"kind": "proxy_bid", "plant": 999, "max": 5}, "plant"),
        ({"kind": "proxy_bid", "plant": "x", "max": 5}, "plant"),
        ({"kind": "buy", "amounts": {"gold": 1}, "max_price": 3}, "amounts"),
        ({"kind": "buy", "amounts": {"coal": 1}, "max_price": 0}, "max_price"),
        ({"kind": "build", "cities": ["atlantis"], "max_total": 40}, "cities"),
        ([1, 2], "kind"),
        ({"kind": {}}, "kind"),
        ({"kind": ["buy"]}, "kind"),
        ({"kind": "buy", "amounts": {"coal": {}}, "max_price": 3}, "coal"),
        ({"kind": "build", "cities": [{}], "max_total": 4}, "cities"),
    ],
)
def test_an_invalid_plan_is_refused_with_its_field_and_nothing_is_stored(new_game, body, field):
    from games.models import Game, Plan

    gid, seats = _started(new_game)
    p = next(iter(seats.values()))
    r = p.post(f"/api/v1/games/{gid}/plans/", body)
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "invalid_plan"
    assert err["details"]["field"] == field
    assert err["message"]
    assert not Plan.objects.filter(game_id=gid).exists()
    assert not Game.objects.get(pk=gid).plans_active


def test_only_the_games_players_may_give_or_read_plans(new_game, make_player):
    gid, _seats = _started(new_game)
    stranger = make_player()
    assert stranger.post(f"/api/v1/games/{gid}/plans/", {"kind": "auto_pass"}).status_code == 403
    assert stranger.get(f"/api/v1/games/{gid}/plans/").status_code == 403


def test_a_plan_is_its_owners_alone(new_game, make_player):
    gid, seats = _started(new_game)
    s = _snapshot(gid)
    owner = seats[s.order[2]]
    plant = s.market[1]
    owner.post(f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": 97})
    assert owner.get(f"/api/v1/games/{gid}/plans/").json()["plans"] == [
        {"kind": "proxy_bid", "plant": plant, "max": 97}
    ]
    for other in seats.values():
        if other is owner:
            continue
        assert other.get(f"/api/v1/games/{gid}/plans/").json()["plans"] == []
        for path in ("", "state/", "moves/"):
            body = other.get(f"/api/v1/games/{gid}/{path}").json()
            assert "proxy" not in json.dumps(body)
            assert 97 not in list(leaf_values(body))


def test_auto_pass_and_a_buy_order_act_in_the_move_that_brings_their_turn(new_game):
    """Round 2: the seat last in player order passes the auction by auto-pass and, first to buy
    in phase 3, buys by its standing order: its turns never wait for it."""
    import powergrid

    gid, seats = _started(new_game)
    _play_until(gid, seats, lambda s: s.round == 2 and s.phase == "auction")
    s = _snapshot(gid)
    last = s.order[-1]
    p = seats[last]
    assert p.post(f"/api/v1/games/{gid}/plans/", {"kind": "auto_pass"}).status_code == 200
    r = p.post(
        f"/api/v1/games/{gid}/plans/", {"kind": "buy", "amounts": {"coal": 1}, "max_price": 10}
    )
    assert r.status_code == 200
    assert r.json()["plan"]["round"] == 2
    asked = []

    def stop(st) -> bool:
        if last in powergrid.to_act(st) and st.round == 2 and st.phase in ("auction", "resources"):
            asked.append(st.phase)
            return True
        return st.round == 2 and st.phase == "build"

    _play_until(gid, seats, stop)
    assert asked == [], f"seat {last} was asked in {asked}"
    by_plan = [m for m in _moves(p, gid) if m["source"] == "plan"]
    assert {m["seat"] for m in by_plan} == {last}
    types = [m["action"]["type"] for m in by_plan]
    assert types[0] in ("pass_auction", "pass_bid")
    assert types[-1] == "buy_resources"
    from games.models import Plan

    assert not Plan.objects.filter(game_id=gid, kind="buy").exists()  # used: gone


def test_an_order_that_no_longer_holds_is_dropped_and_its_owner_is_told_why(new_game):
    """A buy order at a price the market no longer offers: the seat is asked as usual, and its
    turn email (to it alone) says why the order was not used."""
    import powergrid
    from games.models import Game, Notification, Plan
    from games.notifications.emails import email_build

    gid, seats = _started(new_game)
    _play_until(gid, seats, lambda s: s.round == 1 and s.phase == "resources")
    s = _snapshot(gid)
    first, later = powergrid.to_act(s)[0], s.order[0]  # the first buyer, and a later one
    if first == later:
        later = s.order[1]
    p = seats[later]
    assert (
        p.post(
            f"/api/v1/games/{gid}/plans/", {"kind": "buy", "amounts": {"coal": 1}, "max_price": 1}
        ).status_code
        == 200
    )
    _play_until(gid, seats, lambda st: later in powergrid.to_act(st) or st.phase != "resources")
    assert later in Game.objects.get(pk=gid).to_act  # asked: the order did not hold
    assert not Plan.objects.filter(game_id=gid, kind="buy").exists()  # dropped
    note = Notification.objects.filter(game_id=gid, recipient=p.user, kind="turn").latest("id")
    assert "1 or less" in note.payload["plan_note"]
    mail = email_build(note)
    assert mail is not None
    assert "Your standing order was not used" in mail.body
    others = Notification.objects.filter(game_id=gid).exclude(recipient=p.user)
    assert not any("plan_note" in n.payload for n in others)


def test_acted_is_one_entry_per_move(new_game, monkeypatch):
    """``acted`` has one ``{seq, text}`` per move (docs/API.md): a move the log tells in several
    lines (a sealed bid made by a plan gave three entries with one seq) is one entry, its
    lines joined in order; other seats' lines and lines of moves made by hand are left out."""
    from games.plans import services

    gid, _ps = new_game(players=3)
    lines = [
        {"seq": 5, "seat": 0, "source": "plan", "t": "Anna bid in secret."},
        {"seq": 5, "seat": 0, "source": "plan", "t": "The bids are opened."},
        {"seq": 5, "seat": 0, "source": "plan", "t": "Anna bought plant 13 for 15."},
        {"seq": 6, "seat": 1, "source": "plan", "t": "Ben passed."},
        {"seq": 7, "seat": 0, "source": "sheet", "t": "Anna bought 2 coal."},
        {"seq": 8, "seat": 0, "source": "player", "t": "Anna built Essen."},
    ]
    monkeypatch.setattr(services.log, "entries", lambda game: lines)
    monkeypatch.setattr(services.describe, "move_describe", lambda e, *a, **k: e["t"])
    acted = services.plan_moves_described(game_id=gid, seat=0, after=4, upto=8, names={})
    assert acted == [
        {
            "seq": 5,
            "text": "Anna bid in secret. The bids are opened. Anna bought plant 13 for 15.",
        },
        {"seq": 7, "text": "Anna bought 2 coal."},
    ]
    assert len({a["seq"] for a in acted}) == len(acted)
