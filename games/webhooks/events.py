"""Which webhooks an event goes to, and what it says: written as ``WebhookDelivery`` rows in the
transaction of the change that caused it (the turn hook's outbox calls ``deliveries_write``).

Only public facts go in a payload: the game, its map and link, whose turn and its deadline, the
event. Never money, plans, the deck or the seed.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse

from games import queue
from games.models import Game, Seat, Webhook, WebhookDelivery
from games.shapes.base import JSONObject

log = logging.getLogger("games.webhooks")

#: The engine awaits a seat's move. In a game played by round sheets, ``sheet_round`` (the
#: round) while that seat's round sheet is unanswered: answering it answers the round.
YOUR_TURN = "your_turn"
#: A round began in a game played by round sheets and the seat is asked for its sheet
#: (``games.sheets.asking``): one per seat asked, every seat at once; ``sheet``: the round and the
#: sheet's API address; ``deadline``: when its suggestion is played if it is not answered.
SHEET_ASKED = "sheet_asked"
GAME_STARTED = "game_started"
GAME_OVER = "game_over"
#: A player took back moves (``seat``: theirs; ``takeback``: which moves, who agreed), and a
#: player asks the others to agree to one (``takeback``: the request).
TAKEBACK = "takeback"
TAKEBACK_ASKED = "takeback_asked"
#: Tournaments and leagues (the ``tournaments`` app writes them, ``tournament``: its facts):
#: a seat at round 1's table, a later round (``tournament.table`` null: a bye), the end.
TABLE_READY = "table_ready"
ROUND_STARTED = "round_started"
FINAL_STANDINGS = "final_standings"
COMPETITION_EVENTS = (TABLE_READY, ROUND_STARTED, FINAL_STANDINGS)
EVENTS = (
    YOUR_TURN,
    SHEET_ASKED,
    GAME_STARTED,
    GAME_OVER,
    TAKEBACK,
    TAKEBACK_ASKED,
    *COMPETITION_EVENTS,
)
#: The events about one seat, posted to its owner's own webhooks (those set for no game) only
#: when the seat is theirs; a game's webhooks hear every seat's.
SEAT_EVENTS = (YOUR_TURN, SHEET_ASKED)

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
    if event == SHEET_ASKED and isinstance(body.get("sheet"), dict):
        url = settings.SITE_URL + reverse("api_game_sheet", args=[game.pk])
        body["sheet"] = {**body["sheet"], "url": url}
    return body


#: A Discord user ID (a "snowflake"): a 64-bit number written in decimal, 17 digits since 2015
#: and 20 at most. Anything else (a name, ``<@...>``, ``@everyone``) is refused, so what is put
#: into a post's ``<@id>`` is a number and never markup.
DISCORD_ID = re.compile(r"[0-9]{17,20}")
#: The payload's key for the Discord user to mention (Discord posts only: ``discord_mention``).
MENTION = "discord_mention"


def discord_mention(hook: Webhook, event: str, seat: Seat | None) -> str:
    """The Discord user ID a Discord post of ``event`` mentions: the awaited player's own
    (``Profile.discord_user_id``) on a turn or when asked for their round sheet, nobody
    otherwise. Only Discord posts carry it: a generic or Slack webhook (another player's
    program) never learns anyone's Discord ID."""
    if hook.format != Webhook.Format.DISCORD or event not in SEAT_EVENTS or seat is None:
        return ""
    profile = getattr(seat.user, "profile", None)
    return str(getattr(profile, "discord_user_id", "") or "")


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
                and event in SEAT_EVENTS
                and (seat is None or seat.user_id != hook.owner_id)
            ):
                continue  # a player's own webhook: only their turns and sheets
            key = f"{hook.pk}:{event}:{game.pk}:{game.seq}:{seat.seat if seat else '-'}"
            body = payload(game, event, seat, extra)
            mention = discord_mention(hook, event, seat)
            if mention:
                body[MENTION] = mention
            rows.append(WebhookDelivery(webhook=hook, event=event, payload=body, dedupe_key=key))
    if not rows:
        return []
    made = WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    keys = [r.dedupe_key for r in made]
    return list(WebhookDelivery.objects.filter(dedupe_key__in=keys).values_list("pk", flat=True))


def personal_write(event: str, bodies: dict[int, JSONObject], key: str) -> list[int]:
    """Rows for ``event``, with no game, to the players' own webhooks (those set for no game):
    ``bodies``: each player's (user id) payload; ``key``: what makes the event one (written
    twice, one row). Returns their ids (to send after commit)."""
    if not bodies:
        return []
    hooks = Webhook.objects.filter(active=True, owner_id__in=list(bodies), game__isnull=True)
    rows = [
        WebhookDelivery(
            webhook=hook,
            event=event,
            payload={"event": event, **bodies[hook.owner_id]},
            dedupe_key=f"{hook.pk}:{event}:{key}",
        )
        for hook in hooks
        if event in (hook.events or EVENTS)
    ]
    if not rows:
        return []
    WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    keys = [r.dedupe_key for r in rows]
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
