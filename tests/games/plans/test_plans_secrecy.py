"""Secrecy over a whole game: every seat keeps plans (proxy bids, auto-pass, standing orders) while
the heuristic bots play, and no other seat, spectator, page or email ever shows a plan: only the
moves the plans made (source ``plan``)."""

from __future__ import annotations

import json

import pytest
from apihelpers import bot_action, seat_players

pytestmark = pytest.mark.django_db

#: Words only a plan has: its kinds and fields.
PLAN_WORDS = ("proxy_bid", "auto_pass", "pass_when_nothing", "max_price", "max_total", "plan_note")


def _no_plan_in(text: str, where: str) -> None:
    for word in PLAN_WORDS:
        assert word not in text, f"{word} in {where}"


def test_no_seat_ever_sees_another_seats_plans(new_game, make_player):
    from django.test import Client

    import powergrid
    from games.models import Game, Move, Notification, Plan
    from games.notifications.emails import email_build
    from powergrid.heuristic import HeuristicBot

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    spectator = make_player()
    bot = HeuristicBot()
    pages = {seat: Client() for seat in seats}
    for seat, c in pages.items():
        c.force_login(seats[seat].user)
    for step in range(260):
        game = Game.objects.get(pk=gid)
        if game.status == "finished":
            break
        s = powergrid.from_json(game.state_json)
        # Each seat refreshes its plans now and then, as a player would between turns.
        if step % 7 == 0:
            for p in seats.values():
                for plant in s.market[:2]:
                    p.post(f"/api/v1/games/{gid}/plans/",
                           {"kind": "proxy_bid", "plant": plant, "max": plant + 3})  # fmt: skip
                p.post(f"/api/v1/games/{gid}/plans/", {"kind": "power"})
                p.post(f"/api/v1/games/{gid}/plans/",
                       {"kind": "buy", "amounts": {"coal": 1}, "max_price": 3})  # fmt: skip
        game = Game.objects.get(pk=gid)
        if game.status == "finished":
            break
        s = powergrid.from_json(game.state_json)
        seat = powergrid.to_act(s)[0]
        if step % 10 == 0:
            for other in seats:
                if other == seat:
                    continue
                for path in ("", "state/", "moves/"):
                    body = seats[other].get(f"/api/v1/games/{gid}/{path}").content.decode()
                    _no_plan_in(body, f"API {path} for seat {other}")
                _no_plan_in(pages[other].get(f"/games/{gid}/").content.decode(), "page")
                theirs = seats[other].get(f"/api/v1/games/{gid}/plans/").json()["plans"]
                own = [pl.data for pl in Plan.objects.filter(game_id=gid, seat=other)]
                assert sorted(json.dumps(x, sort_keys=True) for x in theirs) == sorted(
                    json.dumps(x, sort_keys=True) for x in own
                )
            _no_plan_in(spectator.get(f"/api/v1/games/{gid}/state/").content.decode(), "spect.")
        r = seats[seat].post(
            f"/api/v1/games/{gid}/moves/",
            {"action": bot_action(gid, seat, bot), "expected_seq": game.seq},
        )
        assert r.status_code in (201, 409), r.json()  # 409: a plan moved first
    assert Move.objects.filter(game_id=gid, source="plan").count() > 10
    for n in Notification.objects.filter(game_id=gid):
        mail = email_build(n)
        if mail is None:
            continue
        text = mail.body + json.dumps([a[0] for a in mail.alternatives])
        _no_plan_in(text, f"email {n.kind} to {n.recipient_id}")
