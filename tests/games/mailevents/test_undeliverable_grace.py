"""Games go on fairly: while a player's address is undeliverable and they have not been on the
site since, the deadline sweep applies the game's rule for an absent player (the default move,
then the bot) only after the longer grace; once they are seen, their turns are the game's own."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from mailhelpers import dsn
from outbox_stubs import _mail_and_tasks  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

GRACE = timedelta(hours=72)


def _bounce(n, user) -> None:
    from games.inbox.receive import mail_receive
    from games.mailevents import verp

    bounce = verp.bounce_address(notification_id=n.pk, user_id=user.pk, address=user.email)
    assert mail_receive(dsn(bounce, user.email), via="pipe").code == "bounce_hard"


def _first_move_after(gid: int, seq: int):
    from games.models import Move

    return Move.objects.filter(game_id=gid, seq=seq + 1).values_list("seat", "source").first()


def test_the_sweep_waits_the_grace_for_a_player_whose_turn_email_bounced(awaited, settings):
    from games.deadlines.sweep import deadlines_sweep
    from games.models import Game, Seat

    assert settings.MAIL_UNDELIVERABLE_GRACE_HOURS == 72
    gid, p, n = awaited
    seat = Seat.objects.get(game_id=gid, user=p.user)
    deadline, seq = seat.deadline, Game.objects.get(pk=gid).seq
    _bounce(n, p.user)
    assert Seat.objects.get(pk=seat.pk).deadline == deadline + GRACE
    deadlines_sweep(now=deadline + timedelta(hours=1))
    assert _first_move_after(gid, seq) is None  # the game's rule would have moved for them here
    deadlines_sweep(now=deadline + GRACE - timedelta(minutes=1))
    assert _first_move_after(gid, seq) is None
    deadlines_sweep(now=deadline + GRACE + timedelta(minutes=1))
    # Then the game's rule: a game played by round sheets (the default) plays the sheet's
    # suggestion (games/sheets/timeouts.py); the turn's default move if it cannot decide.
    assert _first_move_after(gid, seq) in {(seat.seat, "sheet"), (seat.seat, "timeout")}


def test_without_a_bounce_the_sweep_moves_at_the_deadline(awaited):
    from games.deadlines.sweep import deadlines_sweep
    from games.models import Game, Seat

    gid, p, _n = awaited
    seat = Seat.objects.get(game_id=gid, user=p.user)
    seq = Game.objects.get(pk=gid).seq
    deadlines_sweep(now=seat.deadline + timedelta(minutes=1))
    # A game played by round sheets (the default): the sheet's suggestion plays.
    assert _first_move_after(gid, seq) in {(seat.seat, "sheet"), (seat.seat, "timeout")}


def test_a_second_report_does_not_move_the_deadline_again(awaited):
    from games.models import Seat

    gid, p, n = awaited
    deadline = Seat.objects.get(game_id=gid, user=p.user).deadline
    _bounce(n, p.user)
    _bounce(n, p.user)  # another report (another DSN of the same failure)
    assert Seat.objects.get(game_id=gid, user=p.user).deadline == deadline + GRACE


def test_later_turns_get_the_grace_until_the_player_is_seen_on_the_site(awaited):
    from games import turns
    from games.models import Game, Seat

    gid, p, n = awaited
    _bounce(n, p.user)
    game = Game.objects.get(pk=gid)
    seat = Seat.objects.select_related("user__profile").get(game_id=gid, user=p.user)
    now = seat.deadline - GRACE
    deadline, reminder = turns.seat_clock(game, seat, now=now)
    assert deadline == now + timedelta(hours=game.options["turn_hours"]) + GRACE
    assert reminder is None  # a reminder could not arrive
    # The player comes to the site (any signed-in page): the game's own clock again, even
    # though the address is still undeliverable (they know where their games are).
    client = Client()
    client.force_login(p.user)
    assert client.get("/").status_code == 200
    seat = Seat.objects.select_related("user__profile").get(pk=seat.pk)
    deadline, reminder = turns.seat_clock(game, seat, now=now)
    assert deadline == now + timedelta(hours=game.options["turn_hours"])
    assert reminder is not None


def test_a_bot_controlled_seat_is_not_given_the_grace(awaited):
    from games.models import Seat

    gid, p, n = awaited
    Seat.objects.filter(game_id=gid, user=p.user).update(bot_controlled=True)
    deadline = Seat.objects.get(game_id=gid, user=p.user).deadline
    _bounce(n, p.user)
    assert Seat.objects.get(game_id=gid, user=p.user).deadline == deadline


def test_a_visit_just_after_the_address_failed_counts_at_once(make_player):
    """``last_seen_at`` is written at most every ten minutes, but a visit after the address
    failed is written whenever it comes: the player is no longer absent."""
    from django.utils import timezone

    from accounts import deliverability
    from accounts.models import Profile

    p = make_player()
    client = Client()
    client.force_login(p.user)
    client.get("/")
    seen = Profile.objects.get(user=p.user).last_seen_at
    assert seen is not None
    client.get("/")
    assert Profile.objects.get(user=p.user).last_seen_at == seen  # within ten minutes: no write
    deliverability.address_mark_undeliverable(
        user=p.user, address=p.user.email, reason="hard_bounce", at=timezone.now()
    )
    p.user.refresh_from_db()
    assert deliverability.absent(p.user)
    client.get("/")
    p.user.refresh_from_db()
    assert not deliverability.absent(p.user)
    assert deliverability.undeliverable(p.user)
