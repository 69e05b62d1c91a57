"""A round sheet's deadline (games/sheets/asking.py, games/sheets/timeouts.py): the game's turn
hours from the round's start, shown by GET .../sheet/ and in the email; a sheet not answered by
then is played by its suggestion through the move service (moves with source ``sheet``, the
answer with source ``timeout``), one timeout for its seat, its player told."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from apihelpers import seat_players

from games.deadlines import sweep
from games.models import Game, Move, Notification, Seat, SheetAnswer

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)  # a Monday
DAY = timedelta(hours=24)


def _round(gid: int) -> int:
    return int(json.loads(Game.objects.get(pk=gid).state_json)["round"])


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def test_a_sheet_not_answered_by_its_deadline_is_played_by_its_suggestion(new_game):
    from games.notifications.emails import email_build

    with time_machine.travel(START, tick=False):
        gid, ps = new_game(players=3, options={"turn_hours": 24, "timeouts_before_bot": 3})
        seats = seat_players(gid, ps)
        game = Game.objects.get(pk=gid)
        first = game.to_act[0]
        keen = next(s for s in seats if s != first)
        late = sorted(s for s in seats if s != keen)
        # Every seat: the game's turn hours from the round's start.
        assert {s.deadline for s in Seat.objects.filter(game=game)} == {START + DAY}
        doc = seats[keen].get(f"/api/v1/games/{gid}/sheet/").json()
        assert doc["due"] is True
        assert doc["deadline"] == _iso(START + DAY)
        r = seats[keen].client.put(f"/api/v1/games/{gid}/sheet/", doc, format="json")
        assert r.status_code == 200, r.content
        assert r.json()["sheet"]["deadline"] is None
        assert Seat.objects.get(game=game, seat=keen).deadline is None
        again = seats[keen].get(f"/api/v1/games/{gid}/sheet/").json()
        assert (again["due"], again["deadline"]) == (False, None)

    # The reminder, at the profile's fraction of the time, to a seat not awaited too.
    other = next(s for s in late if s != first)
    with time_machine.travel(START + DAY * 0.8 + timedelta(minutes=1), tick=False):
        assert sweep.reminders_queue() == len(late)
        reminder = Notification.objects.get(kind="reminder", recipient=seats[other].user)
        mail = email_build(reminder)
        assert mail is not None
        assert "Reminder: your round sheet" in mail.subject
        assert "Deadline:" in mail.body

    with time_machine.travel(START + DAY - timedelta(minutes=1), tick=False):
        assert sweep.deadlines_sweep().moves == 0
        assert not SheetAnswer.objects.filter(source="timeout").exists()

    with time_machine.travel(START + DAY + timedelta(minutes=1), tick=False):
        sweep.deadlines_sweep()
        answered = SheetAnswer.objects.filter(game=game, round=1)
        assert sorted(answered.filter(source="timeout").values_list("seat", flat=True)) == late
        sources = set(Move.objects.filter(game=game).values_list("source", flat=True))
        assert Move.Source.SHEET in sources
        assert sources <= {Move.Source.SHEET, Move.Source.TIMEOUT}
        counts = dict(Seat.objects.filter(game=game).values_list("seat", "timeouts_in_row"))
        assert counts == {s: (0 if s == keen else 1) for s in seats}
        told = Notification.objects.filter(game=game, kind="timeout", payload__sheet_round=1)
        assert sorted(told.values_list("recipient", flat=True)) == sorted(
            seats[s].user.pk for s in late
        )
        mail = email_build(told.get(recipient=seats[other].user))
        assert mail is not None
        assert "was not answered by its deadline, so its suggestions were kept" in mail.body
        assert "1 timeout in a row; after 3 the bot plays for you" in mail.body

    # The round plays itself to its end (a seat asked again, if any, has a turn's deadline).
    at = START + DAY + timedelta(minutes=1)
    for _ in range(6):
        if _round(gid) >= 2:
            break
        at += DAY + timedelta(minutes=1)
        with time_machine.travel(at, tick=False):
            sweep.deadlines_sweep()
    assert _round(gid) == 2
    # Round 2's sheets: asked at once, each with the turn hours from the round's start.
    game = Game.objects.get(pk=gid)
    people = Seat.objects.filter(game=game, bot_controlled=False)
    deadlines = {s.deadline for s in people}
    assert len(deadlines) == 1
    (deadline,) = deadlines
    assert deadline is not None
    assert deadline - at <= DAY


def test_a_sheet_answered_by_its_player_takes_the_seat_back_from_the_bot(new_game):
    with time_machine.travel(START, tick=False):
        gid, ps = new_game(players=3, options={"turn_hours": 24, "timeouts_before_bot": 1})
        seats = seat_players(gid, ps)
    with time_machine.travel(START + DAY + timedelta(minutes=1), tick=False):
        sweep.deadlines_sweep()
    game = Game.objects.get(pk=gid)
    # One missed sheet with timeouts_before_bot=1: the bot plays every seat.
    assert set(Seat.objects.filter(game=game).values_list("bot_controlled", flat=True)) == {True}
    if game.status != Game.Status.RUNNING:
        return  # (the bots finished the game meanwhile)
    p = seats[0]
    doc = p.get(f"/api/v1/games/{gid}/sheet/").json()
    with time_machine.travel(START + DAY + timedelta(minutes=2), tick=False):
        r = p.client.put(f"/api/v1/games/{gid}/sheet/", doc, format="json")
        assert r.status_code == 200, r.content
    seat = Seat.objects.get(game=game, seat=0)
    assert (seat.bot_controlled, seat.timeouts_in_row) == (False, 0)


def test_a_player_who_resigned_cannot_answer_a_sheet(new_game):
    from games.services.seats import seat_resign

    gid, ps = new_game(players=3)
    doc = ps[1].get(f"/api/v1/games/{gid}/sheet/").json()
    seat_resign(game_id=gid, user=ps[1].user)
    r = ps[1].client.put(f"/api/v1/games/{gid}/sheet/", doc, format="json")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "seat_left"
    seat = Seat.objects.get(game_id=gid, user=ps[1].user)
    assert seat.bot_controlled  # the bot keeps the seat
    assert not SheetAnswer.objects.filter(game_id=gid, seat=seat.seat).exists()
