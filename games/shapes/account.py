"""The caller's account: tokens, ``me``, Web Push devices, blocks, the calendar feed,
vacations, API tokens."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, TypedDict

from games.shapes.base import Invitations, Language, NotificationMode, UndeliverableReason
from powergrid.shapes import Doc


# ---------------------------------------------------------------- auth and me
class Token(TypedDict):
    token: Annotated[str, Doc("Send as `Authorization: Bearer <token>`. Shown once.")]
    expiry: Annotated[datetime | None, Doc("null: valid until revoked.")]


class EmailUndeliverable(TypedDict):
    """Why and since when our emails to the account's address do not arrive
    (``accounts.deliverability``)."""

    reason: Annotated[
        UndeliverableReason,
        Doc(
            "hard_bounce (the mailbox or domain does not exist), soft_bounces (several came back: "
            "a full mailbox, a refusing server), rejected (the provider refused the address), "
            "complaint (an email was marked as spam: emails are also turned off)."
        ),
    ]
    since: Annotated[datetime, Doc("When the address was found undeliverable (UTC).")]


class Me(TypedDict):
    username: str
    email: str
    display_name: str
    timezone: Annotated[str, Doc("IANA name, e.g. Asia/Tokyo.")]
    language: Language
    notification_mode: NotificationMode
    reminder_fraction: float
    invitations: Annotated[
        Invitations,
        Doc(
            "Who may invite you to a game by username: anyone, only players you have played a "
            "game with, or nobody (each invitation is an email to you)."
        ),
    ]
    vacation_days_per_year: int
    vacation_days_used: int
    bot_account: Annotated[bool, Doc("A third party's bot (POST /api/v1/me/bot/ makes one).")]
    email_undeliverable: Annotated[
        EmailUndeliverable | None,
        Doc(
            "Set while our emails to `email` are known not to arrive (a bounce, a refusal, a "
            "spam complaint): nothing is sent to it meanwhile. null when the address is fine."
        ),
    ]


# ---------------------------------------------------------------- Web Push and blocks
class PushKey(TypedDict):
    public_key: Annotated[
        str,
        Doc(
            "The VAPID application server key for pushManager.subscribe (base64url, P-256); "
            "empty when Web Push is off on this server."
        ),
    ]


class PushDevice(TypedDict):
    """One device (a browser's push subscription) of yours."""

    id: int
    name: Annotated[str, Doc("Your name for it (at most 80 characters).")]
    service: Annotated[str, Doc("The push service's host (fcm.googleapis.com, ...).")]
    turns: Annotated[bool, Doc("Whether it gets a notice when it is your turn.")]
    created: datetime
    last_sent: datetime | None


class BlockedPlayer(TypedDict):
    username: str
    name: Annotated[str, Doc("Their display name.")]
    since: datetime


# ---------------------------------------------------------------- the caller's account
class CalendarFeed(TypedDict):
    """The caller's calendar feed: an iCalendar of their deadlines at a secret address anyone
    holding it may read (no login)."""

    url: Annotated[str | None, Doc("null: the feed is off.")]


class Vacation(TypedDict):
    """The caller's vacation: while on it, their turn clocks stop (days counted against a
    yearly allowance)."""

    on: bool
    until: Annotated[datetime | None, Doc("When the vacation ends (null when not on one).")]
    days_per_year: int
    days_used: Annotated[int, Doc("Days taken this year (unused days of one ended early back).")]
    days_left: int
    year: Annotated[int, Doc("The year the allowance is counted in.")]


class ApiToken(TypedDict):
    """One of the caller's API tokens; the token itself is shown only once, when made."""

    prefix: Annotated[
        str, Doc("The token's first characters (to tell it apart; DELETE .../{prefix}/).")
    ]
    name: Annotated[str, Doc("The name its owner gave it (may be empty).")]
    created: datetime
    last_used: Annotated[
        datetime | None,
        Doc("When it last authenticated a request, to within minutes (null: not yet)."),
    ]
    expiry: Annotated[datetime | None, Doc("null: valid until revoked.")]
    current: Annotated[bool, Doc("The token this request was made with.")]
