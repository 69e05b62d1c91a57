"""Take-backs through the API: at once when nobody else moved and nothing was revealed, else by
asking every other player; the log keeps every entry, the state after is the state before the
move, the deck keeps its order, and the limits (the lobby option, rated games) hold."""

from __future__ import annotations

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db

ALLOWED = {"takebacks_rated": True}


def _state(gid):
    import powergrid
    from games.models import Game

    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _move(p, gid, action, seq):
    r = p.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
    assert r.status_code == 201, r.json()
    return r.json()


def _replays_clean(gid):
    from django.core.management import call_command

    call_command("check_replays", str(gid))


def _start(new_game, players=3, **options):
    gid, ps = new_game(players=players, options={**ALLOWED, **options})
    seats = seat_players(gid, ps)
    s = _state(gid)
    return gid, seats, s


def test_a_move_nobody_answered_is_taken_back_at_once_and_the_state_is_the_one_before(new_game):
    gid, seats, s = _start(new_game)
    first = s.order[0]
    p = seats[first]
    before = p.get(f"/api/v1/games/{gid}/state/").json()
    _move(p, gid, {"type": "choose_plant", "plant": 5, "bid": 7}, 0)
    offer = p.get(f"/api/v1/games/{gid}/takeback/").json()
    assert offer["how"] == "now"
    assert offer["cancels"] == [1]
    assert offer["left"] == 3
    r = p.post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["takeback"] == {"seq": 2, "seat": first, "cancels": [1], "accepted_by": []}
    after = body["state"]
    assert after["seq"] == 2
    for key in ("players", "plant_market", "auction", "to_act", "legal", "round", "phase"):
        assert after[key] == before[key], key
    assert _state(gid) == s
    log = p.get(f"/api/v1/games/{gid}/moves/").json()
    assert [m["action"]["type"] for m in log] == ["choose_plant", "takeback"]
    assert log[1]["action"] == {"type": "takeback", "cancels": [1], "accepted_by": []}
    assert p.get(f"/api/v1/games/{gid}/takeback/").json()["left"] == 2
    _replays_clean(gid)
    # The player moves again, from the same position.
    _move(p, gid, {"type": "choose_plant", "plant": 3, "bid": 3}, 2)
    _replays_clean(gid)


def test_the_seat_that_moves_again_gets_a_fresh_deadline_and_the_others_none(new_game):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.models import Seat

    gid, seats, s = _start(new_game)
    a = s.order[0]
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    b = _state(gid).auction.turn
    assert Seat.objects.get(game_id=gid, seat=b).deadline is not None
    assert Seat.objects.get(game_id=gid, seat=a).deadline is None
    later = start + timedelta(hours=5)
    with time_machine.travel(later, tick=False):
        r = seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1})
    assert r.status_code == 201
    mine = Seat.objects.get(game_id=gid, seat=a)
    assert mine.deadline == later + timedelta(hours=24)  # counted from the take-back
    assert Seat.objects.get(game_id=gid, seat=b).deadline is None


def test_after_another_player_moved_the_takeback_needs_everyones_agreement(new_game):
    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    b = _state(gid).auction.turn
    _move(seats[b], gid, {"type": "bid", "amount": 6}, 1)
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 2})
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "takeback_needs_agreement"
    assert err["details"] == {"reason": "others_moved", "cancels": [1, 2]}
    assert seats[a].get(f"/api/v1/games/{gid}/takeback/").json()["how"] == "ask"
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
    assert r.status_code == 201, r.json()
    req = r.json()["request"]
    assert r.json()["takeback"] is None
    assert req["status"] == "pending"
    assert req["cancels"] == [1, 2]
    others = [x for x in range(3) if x != a]
    assert req["waiting_for"] == others
    rid = req["id"]
    # The one who asked cannot answer; a second request waits.
    assert seats[a].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/").status_code == 403
    again = seats[a].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
    assert again.json()["error"]["code"] == "takeback_request_open"
    r = seats[others[0]].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/")
    assert r.status_code == 200
    assert r.json()["request"]["waiting_for"] == [others[1]]
    assert r.json()["takeback"] is None
    assert _state(gid).auction is not None
    r = seats[others[1]].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/")
    assert r.status_code == 200, r.json()
    done = r.json()
    assert done["takeback"] == {"seq": 3, "seat": a, "cancels": [1, 2], "accepted_by": others}
    assert done["request"]["status"] == "accepted"
    assert done["request"]["takeback_seq"] == 3
    assert _state(gid) == s
    _replays_clean(gid)
    # Agreed take-backs do not count against the limit.
    assert seats[a].get(f"/api/v1/games/{gid}/takeback/").json()["left"] == 3


def test_a_plant_drawn_comes_back_on_top_and_comes_up_again(new_game):
    gid, seats, s = _start(new_game, players=2)
    a, b = s.order
    _move(seats[a], gid, {"type": "choose_plant", "plant": 4, "bid": 4}, 0)
    before = _state(gid)
    _move(seats[b], gid, {"type": "pass_bid"}, 1)  # a buys plant 4: the top card is drawn
    drawn = before.deck[0]
    assert drawn in _state(gid).market
    r = seats[b].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 2})
    assert r.json()["error"]["details"]["reason"] == "plant_drawn"
    r = seats[b].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
    rid = r.json()["request"]["id"]
    assert r.json()["request"]["reason"] == "plant_drawn"
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/")
    assert r.json()["takeback"]["cancels"] == [2]
    back = _state(gid)
    assert back == before
    assert back.deck[0] == drawn
    assert drawn not in back.market
    _move(seats[b], gid, {"type": "pass_bid"}, 3)
    assert drawn in _state(gid).market  # the same card came up again
    _replays_clean(gid)


def test_a_request_is_void_once_the_game_moves_on_and_expires_at_its_deadline(new_game):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    b = _state(gid).auction.turn
    _move(seats[b], gid, {"type": "bid", "amount": 6}, 1)
    rid = (
        seats[a]
        .post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
        .json()["request"]["id"]
    )
    c = _state(gid).auction.turn
    _move(seats[c], gid, {"type": "pass_bid"}, 2)  # the game moves on
    r = seats[b].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "takeback_moved_on"
    from games.models import TakebackRequest

    assert TakebackRequest.objects.get(pk=rid).status == "void"  # written, not only answered
    assert seats[a].get(f"/api/v1/games/{gid}/takeback/requests/{rid}/").json()["status"] == "void"
    # A new request, left until its deadline passes.
    req = seats[a].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 3}).json()
    deadline = req["request"]["deadline"]
    assert deadline
    with time_machine.travel(timezone.now() + timedelta(days=3), tick=False):
        r = seats[b].post(f"/api/v1/games/{gid}/takeback/requests/{req['request']['id']}/accept/")
    assert r.json()["error"]["code"] == "takeback_expired"


def test_declined_and_withdrawn_requests_close(new_game):
    from games.models import Notification

    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    b = _state(gid).auction.turn
    _move(seats[b], gid, {"type": "bid", "amount": 6}, 1)
    rid = (
        seats[a]
        .post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
        .json()["request"]["id"]
    )
    r = seats[b].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/decline/")
    assert r.json()["request"]["status"] == "declined"
    assert r.json()["request"]["declined_by"] == b
    assert (
        Notification.objects.filter(
            game_id=gid, kind="takeback_declined", recipient=seats[a].user
        ).count()
        == 1
    )
    other = next(x for x in range(3) if x not in (a, b))
    r = seats[other].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/")
    assert r.json()["error"]["code"] == "takeback_request_closed"
    rid = (
        seats[a]
        .post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
        .json()["request"]["id"]
    )
    assert (
        seats[b].client.delete(f"/api/v1/games/{gid}/takeback/requests/{rid}/").status_code == 403
    )
    assert (
        seats[a].client.delete(f"/api/v1/games/{gid}/takeback/requests/{rid}/").status_code == 204
    )
    assert seats[a].get(f"/api/v1/games/{gid}/takeback/requests/{rid}/").json()["status"] == (
        "withdrawn"
    )
    assert _state(gid).auction is not None  # nothing was taken back


def test_the_limit_of_takebacks_alone_is_the_lobby_option(new_game):
    gid, seats, s = _start(new_game, takebacks=1)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    assert seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1}).status_code == 201
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 2)
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 3})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "takeback_limit_reached"
    assert r.json()["error"]["details"] == {"limit": 1}
    offer = seats[a].get(f"/api/v1/games/{gid}/takeback/").json()
    assert offer["left"] == 0
    assert offer["how"] == "ask"


def test_a_rated_game_has_no_takebacks_unless_its_creator_allowed_them(new_game):
    gid, ps = new_game(players=2)  # people only: rated
    seats = seat_players(gid, ps)
    a = _state(gid).order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    for path in ("takeback/", "takeback/requests/"):
        r = seats[a].post(f"/api/v1/games/{gid}/{path}", {"expected_seq": 1})
        assert r.status_code == 409
        assert r.json()["error"]["code"] == "takebacks_off"
    assert seats[a].get(f"/api/v1/games/{gid}/takeback/").json()["refused"] == "takebacks_off"
    detail = seats[a].get(f"/api/v1/games/{gid}/").json()
    assert detail["options"]["takebacks_rated"] is False
    assert detail["options"]["takebacks"] == 3


def test_bad_input_is_refused_and_changes_nothing(new_game, make_player):
    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    for body in ({}, {"expected_seq": "one"}, {"expected_seq": -1}, {"expected_seq": None}):
        r = seats[a].post(f"/api/v1/games/{gid}/takeback/", body)
        assert r.status_code == 400, body
        assert r.json()["error"]["code"] == "invalid_field"
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 0})
    assert r.json()["error"]["code"] == "stale_state"
    stranger = make_player()
    r = stranger.post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1})
    assert r.status_code == 403
    assert stranger.get(f"/api/v1/games/{gid}/takeback/").status_code == 403
    assert seats[a].post("/api/v1/games/99999/takeback/", {"expected_seq": 1}).status_code == 404
    b = next(x for x in range(3) if x != a)
    r = seats[b].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1})
    assert r.json()["error"]["code"] == "nothing_to_take_back"
    r = seats[b].post(f"/api/v1/games/{gid}/takeback/requests/999/accept/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "takeback_request_not_found"
    from games.models import Game

    assert Game.objects.get(pk=gid).seq == 1


def test_a_finished_game_takes_nothing_back(new_game):
    from games.models import Game

    gid, seats, s = _start(new_game, players=2)
    Game.objects.filter(pk=gid).update(status="finished")
    r = seats[s.order[0]].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 0})
    assert r.json()["error"]["code"] == "game_over"


def test_the_record_of_a_finished_game_shows_its_takebacks_and_verifies(new_game):
    from apihelpers import play_to_end

    gid, ps = new_game(players=2, options=ALLOWED)
    seats = seat_players(gid, ps)
    a = _state(gid).order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 5, "bid": 5}, 0)
    assert seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1}).status_code == 201
    play_to_end(gid, ps)
    record = ps[0].get(f"/api/v1/games/{gid}/record/").json()
    assert record["takebacks"] == [{"seq": 2, "seat": a, "cancels": [1], "accepted_by": []}]
    assert record["moves"][1] == [a, {"type": "takeback", "cancels": [1], "accepted_by": []}]
    from games import engine

    assert engine.record_verify(record).ok
