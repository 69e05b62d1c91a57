"""What the API answers about the caller, their webhooks and a game's chat: each filled here as
its declared shape (``games.shapes``), from the models. The game, its state and its move log
are filled by ``games.selectors`` (the pages read those too)."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from rest_framework.exceptions import NotAuthenticated

from accounts import deliverability
from accounts.models import Profile
from games import shapes
from games.chat import selectors as chat_selectors
from games.models import ChatMessage, Webhook


def account(user: object) -> User:
    """The caller as the account it is (``request.user`` of a view that requires one: DRF types
    it as any user, or none)."""
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def me_json(user: User) -> shapes.Me:
    prof, _ = Profile.objects.get_or_create(user=user)
    return {
        "username": user.get_username(),
        "email": user.email,
        "display_name": prof.display_name,
        "timezone": prof.timezone,
        "language": cast(shapes.Language, prof.language),
        "notification_mode": cast(shapes.NotificationMode, prof.notification_mode),
        "reminder_fraction": prof.reminder_fraction,
        "invitations": cast(shapes.Invitations, prof.invitations),
        "vacation_days_per_year": prof.vacation_days_per_year,
        "vacation_days_used": prof.vacation_days_used,
        "bot_account": prof.bot_account,
        "email_undeliverable": _undeliverable(user, prof),
    }


def _undeliverable(user: User, prof: Profile) -> shapes.EmailUndeliverable | None:
    state = deliverability.undeliverable_state(user, prof)
    if state is None:
        return None
    reason, since = state
    return {"reason": cast(shapes.UndeliverableReason, reason), "since": since}


def webhook_json(h: Webhook) -> shapes.Webhook:
    return {
        "id": h.pk,
        "url": h.url,
        "format": cast(shapes.WebhookFormat, h.format),
        "events": [cast(shapes.WebhookEvent, e) for e in h.events],
        "game": h.game_id,
        "active": h.active,
        "failures_in_row": h.failures_in_row,
        "disabled_reason": h.disabled_reason,
        "secret": h.secret,
    }


def chat_json(m: ChatMessage, seats: dict[int, int]) -> shapes.ChatMessage:
    """A chat message; ``seats`` maps the game's players' user ids to their seats."""
    return {
        "id": m.pk,
        "author": chat_selectors.author_name(m),
        "seat": seats.get(m.author_id),
        "text": m.text,
        "time": m.created_at,
        "edited": m.edited_at is not None,
    }
