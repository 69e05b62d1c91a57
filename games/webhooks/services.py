"""Creating, listing, testing and deleting webhooks (each owns its transaction)."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from accounts.models import Profile
from games import numbers, selectors
from games.models import Game, Seat, Webhook, WebhookDelivery
from games.services.errors import GameNotFound, NotAPlayer, ServiceError
from games.webhooks.events import DISCORD_ID, EVENTS, schedule
from games.webhooks.safety import UnsafeURL, check_url

MAX_PER_USER = 10


class InvalidWebhook(ServiceError):
    status = 400
    code = "invalid_webhook"
    default_message = "The webhook is not valid."


class WebhookNotFound(ServiceError):
    status = 404
    code = "webhook_not_found"
    default_message = "You have no such webhook."


def webhook_create(
    *,
    owner: Any,
    url: object,
    format: object = "generic",
    events: object = None,
    game_id: object = None,
) -> Webhook:
    """A new webhook of ``owner``'s (of the game ``game_id`` if given: they must play in it).
    Raises ``InvalidWebhook`` (``details.field``) for a bad URL, format or event list."""
    if not isinstance(url, str) or len(url) > 500:
        raise InvalidWebhook("'url' must be an https:// URL.", details={"field": "url"})
    try:
        check_url(url.strip())
    except UnsafeURL as exc:
        raise InvalidWebhook(str(exc), details={"field": "url"}) from None
    if format not in Webhook.Format.values:
        raise InvalidWebhook(
            "'format' must be generic, discord or slack.",
            details={"field": "format", "choices": list(Webhook.Format.values)},
        )
    if events is None:
        events = list(EVENTS)
    if not isinstance(events, list) or not events or any(e not in EVENTS for e in events):
        raise InvalidWebhook(
            "'events' must list some of: " + ", ".join(EVENTS) + ".",
            details={"field": "events", "choices": list(EVENTS)},
        )
    with transaction.atomic():
        if Webhook.objects.filter(owner=owner, active=True).count() >= MAX_PER_USER:
            raise InvalidWebhook(
                f"At most {MAX_PER_USER} webhooks per player.", details={"field": "url"}
            )
        game = None
        if game_id is not None:
            try:  # a JSON integer that can be an id (games.numbers), else no query is made
                game_id = numbers.id_from_json(game_id, field="game")
            except numbers.BadNumber:
                raise InvalidWebhook(
                    "'game' must be a game id.", details={"field": "game"}
                ) from None
            # A game the owner may not see is not found (a private game's number tells nothing).
            game = selectors.game_for(game_id=game_id, user=owner)
            if game is None:
                raise GameNotFound()
            if not Seat.objects.filter(game=game, user=owner).exists():
                raise NotAPlayer()
        hook = Webhook.objects.create(
            owner=owner,
            game=game,
            url=url.strip(),
            format=format,
            events=sorted(set(events)),
            secret=secrets.token_hex(32),
        )
        # The games whose events it may want now look for webhooks (see Game.hooks_active).
        games = (
            Game.objects.filter(pk=game.pk)
            if game is not None
            else Game.objects.filter(seats__user=owner).exclude(status=Game.Status.FINISHED)
        )
        games.update(hooks_active=True)
    return hook


class InvalidDiscordId(ServiceError):
    status = 400
    code = "invalid_discord_user_id"
    default_message = "A Discord user ID is 17 to 20 digits (Discord: Copy User ID)."


def discord_id_set(*, user: AbstractBaseUser | AnonymousUser, value: object) -> str:
    """Set (or with ``""`` clear) ``user``'s Discord user ID: their turns' Discord posts mention
    them. Raises ``InvalidDiscordId`` for anything but 17 to 20 ASCII digits (changes nothing)."""
    if not isinstance(value, str):
        raise InvalidDiscordId(details={"field": "discord_user_id"})
    value = value.strip()
    if value and (not DISCORD_ID.fullmatch(value) or int(value) >= 2**64):
        raise InvalidDiscordId(details={"field": "discord_user_id"})
    Profile.objects.filter(user_id=int(user.pk or 0)).update(discord_user_id=value)
    profile = getattr(user, "profile", None)
    if profile is not None:
        profile.discord_user_id = value
    return value


def discord_id_of(user: AbstractBaseUser | AnonymousUser) -> str:
    return str(
        Profile.objects.filter(user_id=int(user.pk or 0))
        .values_list("discord_user_id", flat=True)
        .first()
        or ""
    )


def webhooks_of(owner: Any) -> list[Webhook]:
    return list(Webhook.objects.filter(owner=owner).order_by("created_at"))


def webhook_delete(*, owner: Any, webhook_id: int) -> None:
    deleted, _ = Webhook.objects.filter(owner=owner, pk=webhook_id).delete()
    if not deleted:
        raise WebhookNotFound()


def webhook_test(*, owner: Any, webhook_id: int) -> int:
    """Queue a test delivery (sent after commit); its id."""
    hook = Webhook.objects.filter(owner=owner, pk=webhook_id).first()
    if hook is None:
        raise WebhookNotFound()
    with transaction.atomic():
        d = WebhookDelivery.objects.create(
            webhook=hook,
            event="test",
            payload={"event": "test"},
            dedupe_key=f"{hook.pk}:test:{secrets.token_hex(8)}",
        )
        schedule(ids=[d.pk])
    return d.pk
