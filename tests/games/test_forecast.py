"""The finish forecast: rounds left from the leader's pace, this game's own waits per round, each
seat's median reply time; the slowest seat named; public facts only."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from apihelpers import bot_action, seat_players

pytestmark = pytest.mark.django_db


def _play(gid, seats, n_moves, slow_seat=None, hours=1.0, slow_hours=30.0):
    """Heuristic bots move; each move's time is set as if its player took ``hours`` (the slow
    seat ``slow_hours``) to reply."""
    import powergrid
    from games.models import Game, Move
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    clock = Game.objects.get(pk=gid).started_at
    for _ in range(n_moves):
        game = Game.objects.get(pk=gid)
        seat = powergrid.to_act(powergrid.from_json(game.state_json))[0]
        r = seats[seat].post(
            f"/api/v1/games/{gid}/moves/",
            {"action": bot_action(gid, seat, bot), "expected_seq": game.seq},
        )
        assert r.status_code == 201
        clock += timedelta(hours=slow_hours if seat == slow_seat else hours)
        Move.objects.filter(game_id=gid, seq=game.seq + 1).update(created_at=clock)


def _move(gid, seats, seat, bot, *, at=None):
    """``seat`` plays the bot's move through the API; its time is set to ``at`` if given."""
    from games.models import Game, Move

    game = Game.objects.get(pk=gid)
    r = seats[seat].post(
        f"/api/v1/games/{gid}/moves/",
        {"action": bot_action(gid, seat, bot), "expected_seq": game.seq},
    )
    assert r.status_code == 201, r.content
    if at is not None:
        Move.objects.filter(game_id=gid, seq=game.seq + 1).update(created_at=at)


def test_a_reply_in_bureaucracy_is_timed_from_when_the_seat_was_awaited(new_game):
    """Phase 5 asks every player at once. One answers after 19 hours, the next after 20: the
    second took 20 hours, not the hour between the two answers."""
    import powergrid
    from games.forecast import forecast
    from games.models import Game, Move
    from powergrid.heuristic import HeuristicBot
    from powergrid.state import BUREAUCRACY

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    bot = HeuristicBot()
    while True:
        state = powergrid.from_json(Game.objects.get(pk=gid).state_json)
        awaited = powergrid.to_act(state)
        if state.phase == BUREAUCRACY and len(awaited) == 3:
            break
        _move(gid, seats, awaited[0], bot)
    # Only the two answers below count as people's replies.
    Move.objects.filter(game_id=gid).update(source=Move.Source.BOT)
    asked = Move.objects.filter(game_id=gid).latest("seq").created_at
    first, second = awaited[0], awaited[1]
    _move(gid, seats, first, bot, at=asked + timedelta(hours=19))
    _move(gid, seats, second, bot, at=asked + timedelta(hours=20))

    fc = forecast(Game.objects.get(pk=gid))
    assert fc is not None
    by_seat = {p.seat: p for p in fc.seats}
    assert by_seat[first].median_reply_hours == pytest.approx(19.0, abs=0.01)
    assert by_seat[second].median_reply_hours == pytest.approx(20.0, abs=0.01)
    assert fc.bottleneck == second


def test_rounds_left_follow_the_leaders_pace():
    from games.forecast import rounds_left

    assert rounds_left(max_cities=12, round_=7, end=17, players=4) == 3  # 2 a round: 5 to go
    assert rounds_left(max_cities=16, round_=9, end=17, players=4) == 1
    assert rounds_left(max_cities=3, round_=2, end=17, players=4) == 9  # too early: typical


def test_the_forecast_names_the_slowest_seat_and_scales_with_reply_times(new_game):
    from games.forecast import forecast
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _play(gid, seats, 30, slow_seat=1, hours=2.0, slow_hours=40.0)
    fc = forecast(Game.objects.get(pk=gid))
    assert fc is not None
    assert fc.bottleneck == 1
    by_seat = {p.seat: p for p in fc.seats}
    assert by_seat[1].median_reply_hours == pytest.approx(40.0, abs=2)
    assert by_seat[0].median_reply_hours < 5
    assert fc.waits_left > 0
    assert fc.finish > Game.objects.get(pk=gid).started_at


def test_the_forecast_in_the_api_and_on_the_page_uses_public_facts_only(new_game, make_player):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _play(gid, seats, 12)
    stranger = make_player()
    r = stranger.get(f"/api/v1/games/{gid}/forecast/")
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"rounds_left", "waits_left", "hours_per_wait", "minutes_per_wait",
                         "minutes_left", "finish", "bottleneck", "sheet_rounds",
                         "seats"}  # fmt: skip
    assert all(set(s) == {"seat", "median_reply_hours", "waited_hours", "replies"}
               for s in body["seats"])  # fmt: skip
    from django.test import Client

    c = Client()
    c.force_login(ps[0].user)
    assert "Expected to end in about" in c.get(f"/games/{gid}/").content.decode()


def test_an_open_game_has_no_forecast(new_game):
    gid, ps = new_game(players=3, start=False)
    r = ps[0].get(f"/api/v1/games/{gid}/forecast/")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "game_not_running"


def test_the_kept_reply_times_equal_the_log_and_follow_each_move(new_game):
    """The page and the API ask for the forecast on every view; the reply times are kept per game
    until its next move, and are what reading the whole log gives."""
    from games.forecast import reply_hours, reply_hours_computed
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _play(gid, seats, 12, slow_seat=2, hours=1.0, slow_hours=9.0)
    game = Game.objects.get(pk=gid)
    first = reply_hours(game, players=3)
    assert first == reply_hours_computed(game, players=3)
    assert reply_hours(game, players=3)[0] is first[0]  # kept: no second read of the log

    _play(gid, seats, 1, slow_seat=2, hours=1.0, slow_hours=9.0)
    game = Game.objects.get(pk=gid)
    after = reply_hours(game, players=3)
    assert after == reply_hours_computed(game, players=3)
    assert after[1] == first[1] + 1  # the new move is counted


def test_one_quick_reply_moves_the_forecast_a_little_not_to_a_day(new_game):
    """A one-day turn limit: the first forecast assumes half a day a wait. One reply after 15
    minutes must not cut it to a fiftieth: the prior counts as ``ENOUGH`` replies less the seen."""
    from games.forecast import ENOUGH, forecast
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    before = forecast(Game.objects.get(pk=gid))
    _play(gid, seats, 1, hours=0.25)
    after = forecast(Game.objects.get(pk=gid))
    assert before.hours_per_wait == 12.0
    assert after.hours_per_wait == pytest.approx(((ENOUGH - 1) * 12 + 0.25) / ENOUGH)
    assert after.hours_per_wait > 0.8 * before.hours_per_wait


def test_with_enough_replies_only_what_was_seen_counts(new_game):
    from games.forecast import ENOUGH, forecast
    from games.models import Game

    gid, ps = new_game(players=3)
    _play(gid, seat_players(gid, ps), ENOUGH + 3, hours=2.0)
    assert forecast(Game.objects.get(pk=gid)).hours_per_wait == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Expected to end in about 5 hours"), ("ja", "約 5 時間後")]
)
def test_under_a_day_the_page_says_hours(new_game, make_player, client, lang, words):
    """A finish under a day away is worded in hours, in both languages."""
    from datetime import datetime
    from unittest import mock

    from games import forecast as fc
    from games.models import Game

    gid, ps = new_game(players=3)
    now = datetime.now(UTC)
    real = fc.forecast(Game.objects.get(pk=gid))
    soon = fc.Forecast(
        rounds_left=1,
        waits_left=5,
        hours_per_wait=1.0,
        finish=now + timedelta(hours=5, minutes=5),
        seats=real.seats,
        bottleneck=None,
    )
    viewer = ps[0].user
    viewer.profile.language = lang
    viewer.profile.save()
    client.force_login(viewer)
    with mock.patch("games.web.cards.head.forecast", return_value=soon):
        page = client.get(f"/games/{gid}/").content.decode()
    assert words in page
    assert "day" not in page[page.index('class="forecast') :][:200]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Expected to end in about 10 minutes"), ("ja", "終了見込み：約 10 分後")],
)
def test_under_an_hour_the_page_says_minutes(new_game, make_player, client, lang, words):
    """A finish minutes away is said in minutes, not "about 1 hour" next to a time that is now."""
    from datetime import datetime
    from unittest import mock

    from games import forecast as fc
    from games.models import Game

    gid, ps = new_game(players=3)
    now = datetime.now(UTC)
    real = fc.forecast(Game.objects.get(pk=gid))
    soon = fc.Forecast(
        rounds_left=1,
        waits_left=2,
        hours_per_wait=0.1,
        finish=now + timedelta(minutes=10),
        seats=real.seats,
        bottleneck=None,
    )
    viewer = ps[0].user
    viewer.profile.language = lang
    viewer.profile.save()
    client.force_login(viewer)
    with mock.patch("games.web.cards.head.forecast", return_value=soon):
        page = client.get(f"/games/{gid}/").content.decode()
    line = page[page.index('class="forecast') :][:200]
    assert words in line
    assert "about 1 hour" not in line
    assert "約 1 時間後" not in line


def test_a_practice_game_against_bots_is_forecast_in_minutes(new_game, client):
    """One person against the bots: the bots answer at once and the person is playing now, so
    the forecast is a minute a wait for the person's waits alone (not half the turn limit for
    every seat, which said days), in the API and on the page."""
    from games.models import Game

    gid, ps = new_game(players=4)
    seats = seat_players(gid, ps)
    me = next(iter(seats))
    r = seats[me].post(f"/api/v1/games/{gid}/practice/", {})
    assert r.status_code == 201, r.json()
    pid = r.json()["id"]
    assert Game.objects.get(pk=pid).practice
    fc = seats[me].get(f"/api/v1/games/{pid}/forecast/").json()
    assert fc["minutes_per_wait"] <= 2.0, fc
    # the same figure in hours: never 0.0 where the minutes are not (it said 1.0 and 0.0)
    assert fc["hours_per_wait"] > 0, fc
    assert fc["hours_per_wait"] == round(fc["minutes_per_wait"] / 60, 3), fc
    assert fc["minutes_left"] < 6 * 60, fc
    # An ordinary game of the same table: half the turn limit a wait, days away.
    ordinary = seats[me].get(f"/api/v1/games/{gid}/forecast/").json()
    assert ordinary["minutes_per_wait"] == ordinary["hours_per_wait"] * 60 >= 6 * 60
    client.force_login(seats[me].user)
    line = client.get(f"/games/{pid}/").content.decode()
    line = line[line.index('class="forecast') :][:200]
    assert "minute" in line or "hour" in line, line
    assert "day" not in line, line


@pytest.mark.parametrize("hours", [1 / 60, 0.001, 0.5, 12.0, 12.345678, 100.05])
def test_hours_and_minutes_per_wait_are_one_figure(hours):
    """``hours_per_wait`` is ``minutes_per_wait`` / 60 (3 places): a wait of a minute is not 0.0
    hours, and the two never disagree more than the rounding."""
    from datetime import datetime

    from games import forecast as fc

    body = fc.Forecast(
        rounds_left=1,
        waits_left=1,
        hours_per_wait=hours,
        finish=datetime.now(UTC) + timedelta(hours=1),
        seats=[],
        bottleneck=None,
    ).as_json()
    assert body["minutes_per_wait"] == round(hours * 60, 1)
    assert body["hours_per_wait"] == round(body["minutes_per_wait"] / 60, 3)
    assert (body["hours_per_wait"] > 0) == (body["minutes_per_wait"] > 0)
