"""What players are called, and which bot plays a seat: THE names of seats and of players
(a server bot's in the reader's language, a third party's bot marked as one), so that every
page, email and API answer names a player alike.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext as _

from games.models import Game, Seat
from powergrid.levels import DEFAULT_LEVEL, LEVELS


def bot_name(kind: str, seat: int | None = None) -> str:
    """THE name of a server bot (``Profile.bot_kind``) in the reader's language: its level's
    ("Expert bot 3", エキスパートボット 3: the seat's number, from 1, tells two bots apart), or the
    level itself as a player (a level's rating identity, no seat: "Expert bot"). Every page,
    the API's seats and profiles name a server bot through it, never by its stored display
    name (English, for the admin)."""
    label = _(LEVELS[kind].bot_label) if kind in LEVELS else _("Random bot")
    return label if seat is None else f"{label} {seat + 1}"


def seat_name(seat: Seat) -> str:
    """What the others see: the display name, else the username; a server bot by
    ``bot_name`` (its seat number tells two bots apart); a third party's bot account as
    "name (bot)"."""
    profile = getattr(seat.user, "profile", None)
    kind = getattr(profile, "bot_kind", "") if profile else ""
    if kind:
        return bot_name(kind, seat.seat)
    name = (profile.display_name if profile else "") or seat.user.get_username()
    if profile is not None and profile.bot_account:
        return _("%(name)s (bot)") % {"name": name}
    return name


def player_name(user: AbstractBaseUser) -> str:
    """A player's name outside a game (their page, the API's profile): a server bot by
    ``bot_name`` (a seat's bot with its seat's number: a server bot's account holds one seat;
    a level's rating identity, which holds none, by its level), else the display name, else
    the username."""
    profile = getattr(user, "profile", None)
    kind = getattr(profile, "bot_kind", "") if profile else ""
    if kind:
        seat = Seat.objects.filter(user_id=user.pk).values_list("seat", flat=True).first()
        return bot_name(kind, seat)
    return (profile.display_name if profile else "") or user.get_username()


def seat_bot_level(game: Game, seat: Seat) -> str | None:
    """The level of the server's bot that plays ``seat``: its own (a server bot's seat), the
    game's ``bot_level`` option for a person's seat taken over after timeouts, else None (the
    random bot, a person, a third party's program)."""
    profile = getattr(seat.user, "profile", None)
    kind = getattr(profile, "bot_kind", "") if profile else ""
    if kind:
        return kind if kind in LEVELS else None
    if seat.bot_controlled and not (profile is not None and profile.bot_account):
        level = (game.options or {}).get("bot_level", DEFAULT_LEVEL)
        return str(level) if level in LEVELS else DEFAULT_LEVEL
    return None
