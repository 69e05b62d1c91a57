"""Webhooks, and the Discord user ID a Discord post mentions."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from games.shapes.base import WebhookFormat
from powergrid.shapes import Doc

# ---------------------------------------------------------------- webhooks
_GameWebhookEvent = Literal[
    "your_turn", "sheet_asked", "game_started", "game_over", "takeback", "takeback_asked"
]
WebhookEvent = Literal[_GameWebhookEvent, "table_ready", "round_started", "final_standings"]


class Webhook(TypedDict):
    id: int
    url: str
    format: WebhookFormat
    events: list[WebhookEvent]
    game: Annotated[int | None, Doc("The game whose every turn is posted; null: your own.")]
    active: bool
    failures_in_row: int
    disabled_reason: str
    secret: Annotated[
        str,
        Doc(
            "generic format: verify X-PowerGrid-Signature = sha256=HMAC-SHA256(secret, "
            '"<X-PowerGrid-Timestamp>.<body>").'
        ),
    ]


class WebhookTest(TypedDict):
    delivery: Annotated[int, Doc("The test delivery's id (X-PowerGrid-Delivery).")]


class DiscordUser(TypedDict):
    discord_user_id: Annotated[
        str,
        Doc(
            "Your Discord user ID (17 to 20 digits): a Discord post of your turn mentions you "
            "and nobody else. Empty: it mentions nobody."
        ),
    ]
