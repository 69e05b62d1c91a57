"""Which webhooks an event goes to, and what it says: written as ``WebhookDelivery`` rows in the
transaction of the change that caused it (the turn hook's outbox calls ``deliveries_write``).

Only public facts go in a payload: the game, its map and link, whose turn and its deadline, the
event. Never money, plans, the deck or the seed.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse

from games import queue
from games.models import Game, Seat, Webhook, WebhookDelivery

log = logging.getLogger("games.webhooks")

YOUR_TURN = "your_turn"
GAME_STARTED = "game_started"
GAME_OVER = "game_over"
#: A player took back moves (``seat``: theirs; ``takeback``: which moves, who agreed), and a
#: player asks the others to agree to one (``takeback``: the request).
TAKEBACK = "takeback"
TAKEBACK_ASKED = "takeback_asked"
EVENTS = (YOUR_TURN, GAME_STARTED, GAME_OVER, TAKEBACK, TAKEBACK_ASKED)

#: An event of a change: (event, the seat it is about or None[, what more it says]).
Event = tuple[str, Seat | None] | tuple[str, Seat | None, dict[str, Any]]


def payload(
    game: Game, event: str, seat: Seat | None, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What a delivery says (turned into each format's body when it is sent); ``extra``: the
    event's own facts (a take-back's moves), public like the rest."""
    body: dict[str, Any] = {
        "event": event,
        "game": {
            "id": game.pk,
            "map": game.map,
            "url": settings.SITE_URL + reverse("game", args=[game.pk]),
            "seq": game.seq,
        },
    }
    if seat is not None:
        body["seat"] = seat.seat
        body["player"] = seat.user.profile.name if hasattr(seat.user, "profile") else ""
        body["deadline"] = seat.deadline.isoformat() if seat.deadline else None
    if extra:
        body.update(extra)
    return body


def deliveries_write(game: Game, events: list[Event], seats: list[Seat]) -> list[int]:
    """Rows for ``events`` (``(event, seat awaited or None)``) to every active webhook that wants
    them; returns their ids (to send after commit). One query for the webhooks.

    Only webhooks of players seated in the game now: a game's webhook stops when its owner no
    longer holds a seat (left, or removed by the creator), as the player's own webhooks do."""
    if not events or not game.hooks_active:
        return []
    users = [s.user_id for s in seats]
    hooks = list(
        Webhook.objects.filter(active=True, owner_id__in=users).filter(
            Q(game=game) | Q(game__isnull=True)
        )
    )
    rows = []
    for hook in hooks:
        for event, seat, *more in events:
            extra = more[0] if more else None
            if event not in (hook.events or EVENTS):
                continue
            if (
                hook.game_id is None
                and event == YOUR_TURN
                and (seat is None or seat.user_id != hook.owner_id)
            ):
                continue  # a player's own webhook: only their turns
            key = f"{hook.pk}:{event}:{game.pk}:{game.seq}:{seat.seat if seat else '-'}"
            rows.append(
                WebhookDelivery(
                    webhook=hook,
                    event=event,
                    payload=payload(game, event, seat, extra),
                    dedupe_key=key,
                )
            )
    if not rows:
        return []
    made = WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    keys = [r.dedupe_key for r in made]
    return list(WebhookDelivery.objects.filter(dedupe_key__in=keys).values_list("pk", flat=True))


def schedule(ids: list[int]) -> None:
    """After commit, queue the sending of ``ids`` (the webhook sweep sends them if the broker is
    down)."""
    if not ids:
        return

    def go() -> None:
        try:
            queue.publish(queue.WEBHOOKS_SEND, ids)
        except Exception:  # broker down: the periodic sweep sends them
            log.warning("could not queue webhook deliveries; the sweep will")

    transaction.on_commit(go)
