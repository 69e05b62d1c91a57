"""The deadline sweeper, bot hand-over, reminders, vacations (time moved with time-machine)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts import vacation
from games.deadlines import sweep
from games.models import Game, Move, Notification, Seat

pytestmark = pytest.mark.django_db


def awaited_seat(gid: int) -> Seat:
    game = Game.objects.get(pk=gid)
    return Seat.objects.get(game=game, seat=game.to_act[0])


def test_deadline_set_for_awaited_seat_only_and_indexed_query(new_game):
    gid, _ = new_game(players=3, options={"sheets": False, "turn_hours": 24})
    game = Game.objects.get(pk=gid)
    seats = list(Seat.objects.filter(game=game))
    awaited = [s for s in seats if s.seat in game.to_act]
    assert len(awaited) == 1
    s = awaited[0]
    assert timedelta(hours=23, minutes=59) < s.deadline - timezone.now() <= timedelta(hours=24)
    assert s.reminder_at is not None
    assert abs((s.reminder_at - timezone.now()) - timedelta(hours=19.2)) < timedelta(minutes=1)
    assert all(x.deadline is None for x in seats if x not in awaited)
    assert sweep.due_game_ids() == []


def test_sweeper_applies_default_action_and_tells_the_player(new_game):
    gid, _ = new_game(
        players=3, options={"sheets": False, "turn_hours": 12, "timeouts_before_bot": 3}
    )
    seat = awaited_seat(gid)
    first_deadline = seat.deadline
    with time_machine.travel(seat.deadline + timedelta(minutes=1), tick=False):
        assert sweep.due_game_ids() == [gid]
        report = sweep.deadlines_sweep()
        assert report.found == 1
        assert report.moves == 1
        # Running it again finds nothing: the next seat's deadline is in the future.
        assert sweep.deadlines_sweep().moves == 0
    move = Move.objects.get(game_id=gid, seq=1)
    assert move.source == "timeout"
    assert move.seat == seat.seat
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 1
    assert seat.deadline is None
    assert not seat.bot_controlled
    note = Notification.objects.get(kind="timeout")
    assert note.recipient_id == seat.user_id
    assert note.payload["seq"] == 1
    nxt = awaited_seat(gid)
    assert nxt.deadline > first_deadline + timedelta(hours=11)


def _human_move(gid: int, ps, seat_no: int) -> None:
    import powergrid

    game = Game.objects.get(pk=gid)
    user_id = Seat.objects.get(game=game, seat=seat_no).user_id
    player = next(p for p in ps if p.user.pk == user_id)
    action = powergrid.default_action(powergrid.from_json(game.state_json), seat_no)
    r = player.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": game.seq})
    assert r.status_code == 201, r.content


def _until(gid: int, ps, first: int, done, limit: int = 80) -> None:
    """The other seat moves by hand; ``first`` times out whenever awaited, until ``done()``."""
    for _ in range(limit):
        if done():
            return
        game = Game.objects.get(pk=gid)
        if first in game.to_act:
            due = Seat.objects.get(game=game, seat=first).deadline
            with time_machine.travel(due + timedelta(seconds=1), tick=False):
                sweep.deadlines_sweep()
        else:
            _human_move(gid, ps, game.to_act[0])
    raise AssertionError("condition never reached")


def test_bot_takes_over_after_n_timeouts_and_gives_back_on_a_human_move(
    new_game, published, django_capture_on_commit_callbacks
):
    gid, ps = new_game(
        players=2, options={"sheets": False, "turn_hours": 12, "timeouts_before_bot": 2}
    )
    first = awaited_seat(gid).seat
    with django_capture_on_commit_callbacks(execute=True):
        _until(gid, ps, first, lambda: Seat.objects.get(game_id=gid, seat=first).bot_controlled)
    seat = Seat.objects.get(game_id=gid, seat=first)
    assert seat.timeouts_in_row == 2
    assert Move.objects.filter(game_id=gid, seat=first, source="timeout").count() == 2
    bot_notes = Notification.objects.filter(kind="bot_took_over")
    assert bot_notes.count() == 2  # the player and the other player
    assert {n.payload["you"] for n in bot_notes} == {True, False}
    # Next time the bot's seat is awaited, its deadline is "now" and the bot task is queued.
    published.calls.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _until(gid, ps, first, lambda: first in Game.objects.get(pk=gid).to_act)
    seat.refresh_from_db()
    assert seat.deadline is not None
    assert seat.deadline <= timezone.now()
    assert "game_play_due" in published.names()
    assert sweep.game_handle_due(game_id=gid, wait=True) >= 1
    assert Move.objects.filter(game_id=gid, seat=first, source="bot").exists()
    # The player comes back: a move of their own gives them the seat back.
    _until(gid, ps, first, lambda: first in Game.objects.get(pk=gid).to_act)
    _human_move(gid, ps, first)
    seat.refresh_from_db()
    assert not seat.bot_controlled
    assert seat.timeouts_in_row == 0


def test_sweep_twice_makes_each_timeout_once(new_game):
    gid, _ = new_game(players=3, options={"sheets": False, "turn_hours": 12})
    seat = awaited_seat(gid)
    with time_machine.travel(seat.deadline + timedelta(minutes=1), tick=False):
        sweep.deadlines_sweep()
        sweep.deadlines_sweep()
    assert Move.objects.filter(game_id=gid, source="timeout").count() == 1
    assert Notification.objects.filter(kind="timeout").count() == 1


def test_reminder_written_at_80_percent_once(new_game):
    gid, _ = new_game(players=3, options={"sheets": False, "turn_hours": 24})
    seat = awaited_seat(gid)
    with time_machine.travel(seat.reminder_at - timedelta(minutes=1), tick=False):
        assert sweep.reminders_queue() == 0
    with time_machine.travel(seat.reminder_at + timedelta(minutes=1), tick=False):
        assert sweep.reminders_queue() == 1
        assert sweep.reminders_queue() == 0
    note = Notification.objects.get(kind="reminder")
    assert note.recipient_id == seat.user_id


def test_reminder_fraction_from_profile(new_game):
    gid, ps = new_game(players=2, start=False, options={"sheets": False, "turn_hours": 100})
    for p in ps:
        p.user.profile.reminder_fraction = 0.5
        p.user.profile.save()
    r = ps[0].post(f"/api/v1/games/{gid}/start/")
    assert r.status_code == 200
    seat = awaited_seat(gid)
    assert abs((seat.reminder_at - timezone.now()) - timedelta(hours=50)) < timedelta(minutes=1)


def test_weekend_pause_in_the_players_zone(new_game):
    # Friday 2025-06-06 22:00 in Tokyo: 2 h of Friday count, then Monday.
    with time_machine.travel("2025-06-06 13:00:00+00:00", tick=False):
        gid, ps = new_game(
            players=2,
            start=False,
            options={"sheets": False, "turn_hours": 12, "pause_weekends": True},
        )
        for p in ps:
            p.user.profile.timezone = "Asia/Tokyo"
            p.user.profile.save()
        assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
        seat = awaited_seat(gid)
    from zoneinfo import ZoneInfo

    local = seat.deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    assert (local.weekday(), local.hour, local.minute) == (0, 10, 0)  # Monday 10:00 JST


def test_vacation_pushes_deadlines_and_counts_days(new_game):
    gid, _ps = new_game(players=2, options={"sheets": False, "turn_hours": 24})
    seat = awaited_seat(gid)
    before = seat.deadline
    user = seat.user
    profile = vacation.vacation_start(user=user, days=3)
    assert profile.vacation_days_used == 3
    seat.refresh_from_db()
    assert seat.deadline == before + timedelta(days=3)
    with pytest.raises(vacation.VacationError):
        vacation.vacation_start(user=user, days=1)  # already on vacation
    # A day later the player comes back early: two unused days are refunded, the clock resumes.
    with time_machine.travel(timezone.now() + timedelta(days=1), tick=False):
        profile = vacation.vacation_stop(user=user)
    assert profile.vacation_days_used == 1
    assert profile.vacation_until is None
    seat.refresh_from_db()
    assert abs(seat.deadline - (before + timedelta(days=1))) < timedelta(seconds=5)
    with pytest.raises(vacation.VacationError):
        vacation.vacation_start(user=user, days=14)  # 13 days left this year


def test_turn_given_during_vacation_starts_after_it(new_game):
    gid, ps = new_game(players=2, start=False, options={"sheets": False, "turn_hours": 24})
    for p in ps:
        vacation.vacation_start(user=p.user, days=2)
    assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
    seat = awaited_seat(gid)
    expect = timezone.now() + timedelta(days=2, hours=24)
    assert abs(seat.deadline - expect) < timedelta(minutes=1)
