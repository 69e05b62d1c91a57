"""A bounce end to end: a real Celery worker sends a turn email over SMTP (the sink) with its
own bounce address as the envelope sender; the receiving system's delivery status notification
to that address goes through the pipe handler (as Postfix hands it to ``receive_mail``); the
player is then undeliverable, their deadline is later by the grace, and the worker sends them
nothing more (the row withheld, with the reason) while the other players' emails go."""

from __future__ import annotations

from datetime import timedelta

import pytest
from livehelpers import play_default, start_game, wait_for
from mailhelpers import dsn

pytestmark = [pytest.mark.integration]


def test_a_dsn_to_the_bounce_address_stops_the_emails(
    pg_db, workers, smtp_sink, settings_for_integration
):
    from accounts.models import Profile
    from games.inbox.receive import mail_receive
    from games.models import Game, Notification, Seat

    workers("w1")
    gid, users = start_game(3)
    game = Game.objects.get(pk=gid)
    seat = Seat.objects.select_related("user").get(game_id=gid, seat=game.to_act[0])
    player = seat.user
    got = wait_for(
        lambda: next((r for r in smtp_sink.received if player.email in r.to), None),
        what="the first email to the awaited player",
    )
    assert got.mail_from.startswith("bounce+"), got.mail_from
    assert b"From: Power Grid <" in got.raw  # the From line people see is ours

    result = mail_receive(dsn(got.mail_from, player.email), via="pipe")
    assert result.code == "bounce_hard"
    assert Profile.objects.get(user=player).email_undeliverable_reason == "hard_bounce"
    deadline = Seat.objects.get(pk=seat.pk).deadline
    assert deadline - seat.deadline == timedelta(hours=72)

    # Moves go on; whatever the worker has for the bounced player is withheld, the others get
    # theirs.
    before = len(smtp_sink.received)
    for _ in range(6):
        play_default(gid, users)
    # A turn played before its email went is not told (the outbox checks again just before
    # sending), so play on until the turn that waits is another player's: that one is told.
    for _ in range(6):
        awaited = set(
            Seat.objects.filter(game_id=gid, seat__in=Game.objects.get(pk=gid).to_act).values_list(
                "user_id", flat=True
            )
        )
        if awaited - {player.pk}:
            break
        play_default(gid, users)
    others = [u.email for u in users if u.pk in awaited and u.pk != player.pk]
    assert others, "another player is awaited"
    wait_for(
        lambda: any(any(e in r.to for e in others) for r in smtp_sink.received[before:]),
        what="the turn email of the player awaited now",
    )
    wait_for(
        lambda: not Notification.objects.filter(status__in=["pending", "sending"]).exists(),
        what="the outbox to settle",
    )
    later = smtp_sink.received[before:]
    assert later, "the other players' emails"
    assert all(player.email not in r.to for r in later)
    withheld = list(Notification.objects.filter(recipient=player, status="withheld"))
    assert withheld, "the bounced player's turn came again: its email is withheld"
    assert all(f"{player.email} undeliverable" in n.last_error for n in withheld)
