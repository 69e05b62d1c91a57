"""Leaving a running game and substitutes through the API (games.services.seats): resign hands
the seat to the bot and offers it; a seat is offered while its player plays on and withdrawn; an
offered seat is listed and claimed by whom the game's rules admit; every refusal is a clear 4xx
that changes nothing; moves stay their makers'."""

from __future__ import annotations

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def _awaited(gid: int) -> int:
    from games.models import Game

    return int(Game.objects.get(pk=gid).to_act[0])


def _snapshot(gid: int) -> tuple:
    from games.models import Game, Notification, Seat, Tenure

    return (
        list(
            Seat.objects.filter(game_id=gid).values_list(
                "seat", "user_id", "offered", "bot_controlled"
            )
        ),
        list(Tenure.objects.filter(game_id=gid).values_list("seat", "user_id", "to_seq", "ended")),
        Notification.objects.filter(game_id=gid).count(),
        Game.objects.get(pk=gid).seq,
    )


def test_resign_hands_the_seat_to_the_bot_and_offers_it(new_game):
    from games.models import Game, Notification, Plan, Seat, Tenure

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    me = _awaited(gid)
    Plan.objects.create(game_id=gid, seat=me, kind="secret", data={"x": 1})
    r = seats[me].post(f"/api/v1/games/{gid}/resign/")
    assert r.status_code == 200, r.content
    mine = next(s for s in r.json()["seats"] if s["seat"] == me)
    assert mine["offered"] == "left"
    assert mine["bot_controlled"] is True
    assert mine["bot_level"] == "heuristic"
    seat = Seat.objects.get(game_id=gid, seat=me)
    assert seat.deadline is not None
    assert seat.reminder_at is None
    t = Tenure.objects.get(game_id=gid, seat=me)
    assert (t.user_id, t.from_seq, t.to_seq, t.ended) == (seats[me].user.pk, 0, 0, "resigned")
    assert not Plan.objects.filter(game_id=gid, seat=me).exists()  # the leaver's secret plans go
    told = Notification.objects.filter(game_id=gid, kind="seat")
    assert sorted(n.recipient_id for n in told) == sorted(
        p.user.pk for s, p in seats.items() if s != me
    )
    assert all(n.payload["event"] == "left" for n in told)
    # The leaver may no longer move; resigning again is refused too.
    g = Game.objects.get(pk=gid)
    r = seats[me].post(
        f"/api/v1/games/{gid}/moves/", {"action": {"type": "pass"}, "expected_seq": g.seq}
    )
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "seat_left"
    r = seats[me].post(f"/api/v1/games/{gid}/resign/")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "seat_left"
    # Listed among the games seeking a substitute, to anyone.
    listed = ps[0].get("/api/v1/games/?seeking_substitute=true").json()["results"]
    assert [g["id"] for g in listed] == [gid]


def test_the_games_own_bot_level_plays_a_resigned_seat_at_once(new_game):
    """Resigning hands the seat to the game's ``bot_level`` (here not the default): the API says
    which, and the seat, awaited, is due now: the worker's next pass makes its move as the bot."""
    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Move

    gid, ps = new_game(players=3, options={"bot_level": "beginner"})
    seats = seat_players(gid, ps)
    me = _awaited(gid)
    r = seats[me].post(f"/api/v1/games/{gid}/resign/")
    assert r.status_code == 200, r.content
    mine = next(s for s in r.json()["seats"] if s["seat"] == me)
    assert (mine["bot_controlled"], mine["bot_level"]) == (True, "beginner")
    seq = Game.objects.get(pk=gid).seq
    assert game_handle_due(game_id=gid, wait=True) >= 1
    first = Move.objects.get(game_id=gid, seq=seq + 1)
    assert (first.seat, first.source, first.user_id) == (me, "bot", None)


def test_refusals_change_nothing(new_game, make_player):
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    stranger = make_player()
    before = _snapshot(gid)
    cases = [
        (stranger.post(f"/api/v1/games/{gid}/resign/"), 403, "not_a_player"),
        (stranger.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1}), 409, "seat_not_offered"),
        (stranger.post(f"/api/v1/games/{gid}/substitute/", {"seat": 9}), 400, "invalid_field"),
        (stranger.post(f"/api/v1/games/{gid}/substitute/", {}), 400, "invalid_field"),
        (seats[0].post(f"/api/v1/games/{gid}/resign/", {"now": True}), 400, "invalid_field"),
        (seats[0].post(f"/api/v1/games/{gid}/seeking/", {"seeking": "yes"}), 400, "invalid_field"),
    ]
    for r, status, code in cases:
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.content
    assert _snapshot(gid) == before
    # An offered seat: its own player and the others already seated may not claim it.
    assert seats[1].post(f"/api/v1/games/{gid}/seeking/", {"seeking": True}).status_code == 200
    before = _snapshot(gid)
    for p in (seats[0], seats[1]):
        r = p.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1})
        assert (r.status_code, r.json()["error"]["code"]) == (409, "already_seated")
    assert _snapshot(gid) == before
    # Game over: nothing more.
    Game.objects.filter(pk=gid).update(status="finished")
    for r in (
        seats[0].post(f"/api/v1/games/{gid}/resign/"),
        stranger.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1}),
        seats[1].post(f"/api/v1/games/{gid}/seeking/", {"seeking": False}),
    ):
        assert (r.status_code, r.json()["error"]["code"]) == (409, "game_over")
    assert _snapshot(gid)[:2] == before[:2]


def test_a_substitute_takes_the_seat_and_is_told_at_once(new_game, make_player):
    from games.models import Game, Move, Notification, Seat, Tenure

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    me = _awaited(gid)
    leaver = seats[me].user
    assert seats[me].post(f"/api/v1/games/{gid}/seeking/", {"seeking": True}).status_code == 200
    sub = make_player(display_name="Subby")
    r = sub.post(f"/api/v1/games/{gid}/substitute/", {"seat": me})
    assert r.status_code == 200, r.content
    seat = Seat.objects.get(game_id=gid, seat=me)
    assert seat.user_id == sub.user.pk
    assert seat.offered == ""
    assert not seat.bot_controlled
    assert seat.deadline is not None
    assert seat.reminder_at is not None
    rows = list(Tenure.objects.filter(game_id=gid, seat=me).order_by("from_seq"))
    assert [(t.user_id, t.ended, t.to_seq) for t in rows] == [
        (leaver.pk, "replaced", 0),
        (sub.user.pk, "", None),
    ]
    turn = Notification.objects.get(game_id=gid, kind="turn", recipient=sub.user)
    assert turn.payload["seat"] == me
    joined = Notification.objects.filter(game_id=gid, kind="seat", payload__event="joined")
    assert sorted(n.recipient_id for n in joined) == sorted(
        p.user.pk for s, p in seats.items() if s != me
    )
    assert {n.payload["player"] for n in joined} == {"Subby"}
    # The substitute moves; their move is theirs, the leaver can neither move nor claim back.
    g = Game.objects.get(pk=gid)
    from apihelpers import bot_action

    from powergrid.heuristic import HeuristicBot

    body = {"action": bot_action(gid, me, HeuristicBot()), "expected_seq": g.seq}
    assert sub.post(f"/api/v1/games/{gid}/moves/", body).status_code == 201
    assert Move.objects.get(game_id=gid, seq=g.seq + 1).user_id == sub.user.pk
    r = seats[me].post(f"/api/v1/games/{gid}/substitute/", {"seat": me})
    assert r.status_code in (403, 404, 409)  # hidden or refused: never seated again
    assert Seat.objects.get(game_id=gid, seat=me).user_id == sub.user.pk


def test_seeking_is_marked_and_withdrawn(new_game):
    gid, ps = new_game(players=2)
    seats = seat_players(gid, ps)
    r = seats[0].post(f"/api/v1/games/{gid}/seeking/", {"seeking": True})
    assert r.json()["seats"][0]["offered"] == "seeking"
    assert [
        g["id"] for g in ps[1].get("/api/v1/games/?seeking_substitute=true").json()["results"]
    ] == [gid]
    r = seats[0].post(f"/api/v1/games/{gid}/seeking/", {"seeking": False})
    assert r.json()["seats"][0]["offered"] == ""
    assert ps[1].get("/api/v1/games/?seeking_substitute=true").json()["results"] == []


def test_private_games_admit_invitees_only(new_game, make_player):
    from games.models import Game, Invitation, Seat

    gid, ps = new_game(players=2)
    game = Game.objects.get(pk=gid)
    game.options = {**game.options, "private": True}  # joined by its link, as players do
    game.save()
    seats = seat_players(gid, ps)
    assert seats[1].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    outsider, guest = make_player(), make_player()
    assert outsider.get("/api/v1/games/?seeking_substitute=true").json()["results"] == []
    r = outsider.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1})
    assert r.status_code == 404  # a private game is hidden from who is not invited
    Invitation.objects.create(game_id=gid, user=guest.user)
    assert [
        g["id"] for g in guest.get("/api/v1/games/?seeking_substitute=true").json()["results"]
    ] == [gid]
    assert guest.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1}).status_code == 200
    assert Seat.objects.get(game_id=gid, seat=1).user_id == guest.user.pk


def test_min_on_time_is_asked_of_substitutes(new_game, make_player, monkeypatch):
    from games import players
    from games.models import Seat

    gid, ps = new_game(players=2, options={"min_on_time": 80})
    seats = seat_players(gid, ps)
    assert seats[1].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    late = make_player()
    real = players.reliability

    def fake(user, replies=True):
        rel = real(user, replies=replies)
        if user.pk == late.user.pk:
            return players.Reliability(10, 5, 5, 0, None)
        return rel

    monkeypatch.setattr(players, "reliability", fake)
    r = late.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "below_reliability")
    assert Seat.objects.get(game_id=gid, seat=1).offered == "left"


def test_a_timed_out_seat_is_offered_until_its_player_comes_back(new_game):
    from games.models import Game, Seat, Tenure
    from games.services import moves

    gid, ps = new_game(players=2, options={"timeouts_before_bot": 1})
    seats = seat_players(gid, ps)
    me = _awaited(gid)
    import powergrid
    from games import engine

    state = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    action = engine.default_action(state, me)
    moves.move_apply_system(game=gid, seat=me, action=dict(action), source="timeout")
    seat = Seat.objects.get(game_id=gid, seat=me)
    assert seat.bot_controlled
    assert seat.offered == "timed_out"
    assert Tenure.objects.get(game_id=gid, seat=me).timed_out_at is not None
    listed = ps[0].get("/api/v1/games/?seeking_substitute=true").json()["results"]
    assert [x["id"] for x in listed] == [gid]
    r = seats[me].post(f"/api/v1/games/{gid}/seeking/", {"seeking": False})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "seat_timed_out")


@pytest.mark.parametrize("private", [False, True])
def test_a_leaver_keeps_the_game_on_their_page_and_watches_it_as_others_do(
    new_game, make_player, private
):
    """A player whose seat a substitute took still finds the game on their page (no place:
    the seat's result is its last holder's), and may open it as any watcher: their old seat's
    money is the substitute's secret now. A private game stays hidden from strangers."""
    from django.test import Client

    from games.models import Game, Invitation

    gid, ps = new_game(players=3)
    if private:
        game = Game.objects.get(pk=gid)
        game.options = {**game.options, "private": True}
        game.save()
    seats = seat_players(gid, ps)
    me = _awaited(gid)
    leaver = seats[me]
    assert leaver.post(f"/api/v1/games/{gid}/seeking/", {"seeking": True}).status_code == 200
    sub, stranger = make_player(), make_player()
    if private:
        Invitation.objects.create(game_id=gid, user=sub.user)
    assert sub.post(f"/api/v1/games/{gid}/substitute/", {"seat": me}).status_code == 200
    name = leaver.user.username
    mine = leaver.get(f"/api/v1/players/{name}/").json()["current_games"]
    assert [(g["id"], g["place"]) for g in mine] == [(gid, None)]
    page = Client()
    page.force_login(leaver.user)
    assert f"/games/{gid}/" in page.get(f"/players/{name}/").content.decode()
    assert page.get(f"/games/{gid}/").status_code == 200
    seen = stranger.get(f"/api/v1/players/{name}/").json()["current_games"]
    assert [g["id"] for g in seen] == ([] if private else [gid])
    assert stranger.get(f"/api/v1/games/{gid}/").status_code == (404 if private else 200)
    state = leaver.get(f"/api/v1/games/{gid}/state/")
    assert state.status_code == 200, state.content
    assert state.json()["players"][me]["money"] is None  # the substitute's
    assert sub.get(f"/api/v1/games/{gid}/state/").json()["players"][me]["money"] is not None


def test_a_game_made_without_substitutes_offers_no_seat(new_game, make_player):
    """``options.substitutes`` false (a tournament's tables are made so): a seat its player
    leaves is the bot's to the end. Offering a seat and taking one are refused (409
    ``no_substitutes``, nothing changed), and the game is never listed as seeking; a game made
    before the option existed (no key) takes substitutes as it always did."""
    from games.models import Game

    gid, ps = new_game(players=3, options={"substitutes": False})
    assert ps[0].get(f"/api/v1/games/{gid}/").json()["options"]["substitutes"] is False
    seats = seat_players(gid, ps)
    me = _awaited(gid)
    before = _snapshot(gid)
    r = seats[me].post(f"/api/v1/games/{gid}/seeking/", {"seeking": True})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "no_substitutes")
    assert _snapshot(gid) == before
    assert seats[me].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    newcomer = make_player()
    assert newcomer.get("/api/v1/games/?seeking_substitute=true").json()["results"] == []
    before = _snapshot(gid)
    r = newcomer.post(f"/api/v1/games/{gid}/substitute/", {"seat": me})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "no_substitutes")
    assert _snapshot(gid) == before
    # The same game as one made before the option: its seat is offered and taken.
    game = Game.objects.get(pk=gid)
    game.options = {k: v for k, v in game.options.items() if k != "substitutes"}
    game.save(update_fields=["options"])
    listed = newcomer.get("/api/v1/games/?seeking_substitute=true").json()["results"]
    assert [g["id"] for g in listed] == [gid]
    r = newcomer.post(f"/api/v1/games/{gid}/substitute/", {"seat": me})
    assert r.status_code == 200, r.content


def test_the_substitutes_option_is_true_or_false(new_game, make_player):
    """Like every flag: a JSON boolean, else 400 ``invalid_field`` naming it, nothing made."""
    from games.models import Game

    p = make_player()
    count = Game.objects.count()
    for bad in ("no", 0, None, [], {}):
        r = p.post(
            "/api/v1/games/",
            {"map": "germany", "max_players": 3, "options": {"substitutes": bad}},
        )
        assert r.status_code == 400, (bad, r.content)
        assert r.json()["error"]["details"]["field"] == "options.substitutes", bad
    assert Game.objects.count() == count
