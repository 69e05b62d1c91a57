"""Webhooks and the event stream tell take-backs as events of their own: ``takeback_asked`` when a
player asks, ``takeback`` when moves are taken back (after the ``game`` frame of the change),
with the seat, the moves and whether others agreed; nothing secret."""

from __future__ import annotations

import json

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def _state(gid):
    import powergrid
    from games.models import Game

    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _move(p, gid, action):
    from games.models import Game

    seq = Game.objects.get(pk=gid).seq
    r = p.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
    assert r.status_code == 201, r.json()


def _asked_and_taken_back(gid, seats):
    a = _state(gid).order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 6, "bid": 6})
    b = _state(gid).auction.turn
    _move(seats[b], gid, {"type": "bid", "amount": 7})
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
    rid = r.json()["request"]["id"]
    for seat in seats:
        if seat != a:
            seats[seat].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/")
    return a, rid


def test_a_games_webhook_gets_takeback_asked_then_takeback(new_game, settings):
    from games.models import WebhookDelivery
    from games.webhooks.sending import text
    from games.webhooks.services import webhook_create

    settings.WEBHOOK_ALLOW_PRIVATE = True
    gid, ps = new_game(players=3, start=False, options={"takebacks_rated": True})
    hook = webhook_create(owner=ps[1].user, url="https://hooks.example/x", game_id=gid)
    assert "takeback" in hook.events
    assert "takeback_asked" in hook.events
    ps[0].post(f"/api/v1/games/{gid}/start/")
    seats = seat_players(gid, ps)
    a, rid = _asked_and_taken_back(gid, seats)
    rows = list(
        WebhookDelivery.objects.filter(webhook=hook, event__startswith="takeback").order_by("pk")
    )
    assert [r.event for r in rows] == ["takeback_asked", "takeback"]
    asked, done = (r.payload for r in rows)
    assert asked["takeback"] == {"request": rid, "seat": a, "cancels": [1, 2]}
    assert done["takeback"] == {"seat": a, "cancels": [1, 2], "agreed": True}
    assert done["seat"] == a
    assert done["game"]["seq"] == 3
    assert "took back 2 move(s)" in text(done)
    assert "asks to take back 2 move(s)" in text(asked)
    assert "money" not in json.dumps([asked, done])


def test_a_player_may_leave_takebacks_out_of_their_webhook(new_game, settings):
    from games.models import WebhookDelivery
    from games.webhooks.services import webhook_create

    settings.WEBHOOK_ALLOW_PRIVATE = True

    gid, ps = new_game(players=3, start=False, options={"takebacks_rated": True})
    hook = webhook_create(
        owner=ps[1].user, url="https://hooks.example/x", game_id=gid, events=["your_turn"]
    )
    ps[0].post(f"/api/v1/games/{gid}/start/")
    _asked_and_taken_back(gid, seat_players(gid, ps))
    assert not WebhookDelivery.objects.filter(webhook=hook, event__startswith="takeback").exists()


def test_the_stream_tells_the_takeback_after_the_game_frame(new_game):
    from games.models import Seat
    from games.stream import log

    gid, ps = new_game(players=3, options={"takebacks_rated": True})
    seats = seat_players(gid, ps)
    a = _state(gid).order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 6, "bid": 6})
    since = log.head()
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1})
    assert r.status_code == 201
    # The change's events as each stream reads them from the log: the watchers' (the game) and
    # every player's own.
    readers = {"game": log.Reader(None, gid)} | {
        f"user {uid}": log.Reader(uid, None)
        for uid in Seat.objects.filter(game_id=gid).values_list("user_id", flat=True)
    }
    kinds = []
    for name, reader in readers.items():
        for event in log.after(reader, since):
            lines = reader.frame(event).decode().splitlines()
            kind = next(x[7:] for x in lines if x.startswith("event: "))
            body = json.loads(next(x[6:] for x in lines if x.startswith("data: ")))
            kinds.append((kind, name))
            if kind == "takeback":
                assert body == {
                    "event": "takeback",
                    "game": {"id": gid, "seq": 2},
                    "takeback": {"seat": a, "cancels": [1], "agreed": False},
                }
                assert next(x for x in lines if x.startswith("id: ")) == f"id: {event.pk}"
    game_frames = [c for e, c in kinds if e == "game"]
    takeback_frames = [c for e, c in kinds if e == "takeback"]
    assert sorted(game_frames) == sorted(takeback_frames) == sorted(readers)
    for name in readers:
        assert kinds.index(("takeback", name)) > kinds.index(("game", name))
