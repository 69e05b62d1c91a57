"""What the games app does when something happens elsewhere (connected in ``GamesConfig.ready``).

A player's vacation (``accounts.vacation``) moves their running deadlines and reminders: the
profile owns the allowance, the games own the deadlines. An email a mail provider posts to the
inbound webhook (``anymail.signals.inbound``, sent once its signature is checked) is a reply by
email (``games.inbox``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from anymail.signals import inbound
from django.db.models import F
from django.dispatch import receiver

from accounts.vacation import vacation_shifted
from games.callers import User
from games.inbox.receive import mail_receive
from games.models import Seat


@receiver(vacation_shifted)
def deadlines_shift(sender: Any, user: User, delta: timedelta, **kwargs: Any) -> int:
    """Move the user's running deadlines (and reminders) by ``delta``; bot-played seats keep
    theirs (the bot plays at once)."""
    return Seat.objects.filter(user=user, deadline__isnull=False, bot_controlled=False).update(
        deadline=F("deadline") + delta, reminder_at=F("reminder_at") + delta
    )


@receiver(inbound)
def inbound_mail(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    """A reply by email from the provider's webhook: the same handler as the MTA pipe."""
    message = getattr(event, "message", None)
    if message is None:
        return
    mail_receive(
        message.as_bytes(),
        via=esp_name.lower()[:16],
        envelope_recipient=getattr(message, "envelope_recipient", None),
    )
