"""The pace of "your turn" emails (``games.notifications.pace``): none while the player has the
game's page open or the previous turn email went less than ``HOLD`` ago; a held email goes when
the hold ends if the turn still waits for them (never fewer than one per waiting turn, never two);
the rule's edges, just inside and just outside ``HOLD``."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games.models import Game, Notification, Seat
from games.notifications import claiming, outbox, pace, sending

pytestmark = pytest.mark.django_db


def _turn(game: Game) -> Seat:
    """A pending turn email to the seat awaited now."""
    seat = Seat.objects.select_related("user__profile").get(game=game, seat=game.to_act[0])
    w = outbox.OutboxWriter(game=game)
    w.turn(seat, seq=game.seq)
    w.flush()
    return seat


def _send(now) -> dict[str, int]:
    with time_machine.travel(now, tick=False):
        return sending.outbox_sweep()


def _turn_mails() -> int:
    return sum("Your turn" in m.subject for m in mail.outbox)


def _started(new_game) -> Game:
    gid, _ps = new_game(players=3)
    Notification.objects.all().delete()  # the game-started emails are not paced
    return Game.objects.get(pk=gid)


@pytest.mark.parametrize(
    ("seen_ago", "held"),
    [(timedelta(seconds=10), True), (pace.HOLD - timedelta(seconds=1), True), (pace.HOLD, False)],
)
def test_no_turn_email_while_the_player_is_on_the_page(new_game, seen_ago, held):
    game = _started(new_game)
    seat = _turn(game)
    now = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(page_seen_at=now - seen_ago)
    counts = _send(now)
    assert (_turn_mails() == 0) is held, counts
    if held:
        row = Notification.objects.get(kind="turn")
        assert row.status == "pending"
        assert row.dedupe_key == outbox.turn_key(game.pk, seat.user_id)  # still one per turn


@pytest.mark.parametrize(
    ("sent_ago", "held"),
    [(timedelta(minutes=1), True), (pace.HOLD - timedelta(seconds=1), True), (pace.HOLD, False)],
)
def test_no_turn_email_just_after_the_previous_one(new_game, sent_ago, held):
    game = _started(new_game)
    seat = _turn(game)
    now = timezone.now()
    Notification.objects.create(
        recipient=seat.user, game=game, kind="turn", status="sent", sent_at=now - sent_ago
    )
    _send(now)
    assert (_turn_mails() == 0) is held


def test_a_held_email_goes_when_the_hold_ends_if_the_turn_still_waits(new_game):
    game = _started(new_game)
    seat = _turn(game)
    now = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(page_seen_at=now)
    _send(now)
    assert _turn_mails() == 0
    # Moves meanwhile add no second email for the same turn.
    _turn(game)
    assert Notification.objects.filter(kind="turn", status="pending").count() == 1
    _send(now + pace.HOLD - timedelta(seconds=5))
    assert _turn_mails() == 0
    _send(now + pace.HOLD + timedelta(seconds=5))  # the player left the page: it goes, once
    assert _turn_mails() == 1
    _send(now + 3 * pace.HOLD)
    assert _turn_mails() == 1


def test_a_held_email_is_queued_for_the_end_of_its_hold(
    new_game, monkeypatch, django_capture_on_commit_callbacks
):
    """Not up to a minute later with the outbox sweep: a task with the hold's end as its ETA
    sends it then (it claims the row by id and asks the pace again)."""
    from games import queue

    queued: list[tuple[str, object, tuple]] = []
    monkeypatch.setattr(queue, "publish_at", lambda name, eta, *a: queued.append((name, eta, a)))
    game = _started(new_game)
    seat = _turn(game)
    now = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(page_seen_at=now)
    with django_capture_on_commit_callbacks(execute=True):
        _send(now)
    row = Notification.objects.get(kind="turn")
    assert queued == [(queue.NOTIFICATIONS_SEND, now + pace.HOLD, ([row.pk],))]
    # At the ETA the task sends it (a minute before the sweep would have found it due).
    with time_machine.travel(now + pace.HOLD + timedelta(seconds=1), tick=False):
        assert sending.notifications_send_batch(ids=[row.pk]).get("sent") == 1
    assert _turn_mails() == 1


def test_a_broker_down_leaves_a_held_email_to_the_sweep(
    new_game, monkeypatch, django_capture_on_commit_callbacks
):
    from games import queue

    def down(*a):
        raise ConnectionError("broker down")

    monkeypatch.setattr(queue, "publish_at", down)
    game = _started(new_game)
    seat = _turn(game)
    now = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(page_seen_at=now)
    with django_capture_on_commit_callbacks(execute=True):
        _send(now)  # no error
    assert _turn_mails() == 0
    _send(now + pace.HOLD + claiming.timedelta(seconds=claiming.retry_after_seconds() + 1))
    assert _turn_mails() == 1


def test_the_game_page_marks_its_player_present(new_game, client):
    game = _started(new_game)
    seat = Seat.objects.select_related("user").get(game=game, seat=game.to_act[0])
    client.force_login(seat.user)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    seen = Seat.objects.get(pk=seat.pk).page_seen_at
    assert seen is not None
    assert timezone.now() - seen < timedelta(seconds=30)
    _turn(game)
    sending.outbox_sweep()
    assert _turn_mails() == 0


def _previous_email_then_a_move(game: Game, seat: Seat, now, source: str) -> None:
    """A turn email went 2 minutes ago; the seat moved (by ``source``) 1 minute ago."""
    from games.models import Move

    ago = timedelta(minutes=2)
    Notification.objects.create(
        recipient=seat.user, game=game, kind="turn", status="sent", sent_at=now - ago
    )
    seq = game.seq + 1000
    Move.objects.create(game=game, seq=seq, seat=seat.seat, action={}, source=source)
    Move.objects.filter(game=game, seq=seq).update(created_at=now - timedelta(minutes=1))


def test_a_player_who_answered_the_previous_email_gets_the_next_at_once(new_game):
    """The previous email was read: they moved after it went (a reply, a link, the page). A game
    played by email replies is never slowed down by the pace."""
    game = _started(new_game)
    seat = _turn(game)
    now = timezone.now()
    _previous_email_then_a_move(game, seat, now, "email")
    _send(now)
    assert _turn_mails() == 1


def test_a_move_by_the_player_s_plan_does_not_count_as_reading(new_game):
    game = _started(new_game)
    seat = _turn(game)
    now = timezone.now()
    _previous_email_then_a_move(game, seat, now, "plan")
    _send(now)
    assert _turn_mails() == 0
