"""A user's profile: what the game server needs beyond django.contrib.auth's User."""

import unicodedata
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .names import username_key

#: Why a display name is refused when it reads as another player's username.
POSES_AS_ANOTHER = _("This name is another player's username. Choose another.")


def validate_timezone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("Unknown time zone: %(tz)s"), params={"tz": value})


def validate_display_name(value: str) -> None:
    """A name shown to other players, in pages and plain-text emails: no control or format
    characters (a CR/LF would forge a line in an email; a bidirectional override would reorder
    the text around the name), and not only spaces."""
    bad = [c for c in value if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    if bad:
        raise ValidationError(
            _("A display name cannot contain control characters (U+%(code)04X)."),
            params={"code": ord(bad[0])},
            code="invalid_characters",
        )
    if value and not value.strip():
        raise ValidationError(_("A display name cannot be only spaces."), code="blank")


class Profile(models.Model):
    class Language(models.TextChoices):
        EN = "en", "English"
        JA = "ja", "日本語"

    class NotificationMode(models.TextChoices):
        EVERY_TURN = "every_turn", _("An email for every turn")
        DIGEST = "digest", _("A daily digest")
        NONE = "none", _("No emails")

    class Invitations(models.TextChoices):
        """Who may invite the player to a game (each invitation is an email to them)."""

        ANYONE = "anyone", _("From anyone")
        PLAYED_WITH = "played_with", _("Only from players I have played a game with")
        NOBODY = "nobody", _("From nobody")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, validators=[validate_display_name]
    )
    timezone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_timezone]
    )
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.EN
    )
    #: The player chose ``language`` themselves (the language switch, a change on the settings
    #: page or through the API): logging in then always follows it. Until then the profile's
    #: language yields to the visitor's at each log-in (``accounts.profiles.language_at_login``).
    language_chosen = models.BooleanField(default=False)
    notification_mode = models.CharField(
        _("notifications"),
        max_length=16,
        choices=NotificationMode.choices,
        default=NotificationMode.EVERY_TURN,
    )
    invitations = models.CharField(
        _("game invitations"),
        max_length=12,
        choices=Invitations.choices,
        default=Invitations.ANYONE,
        help_text=_("Who may invite you to a game by your username (each invitation is an email)."),
    )
    reminder_fraction = models.FloatField(
        _("reminder after this fraction of the turn time"),
        default=0.8,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
        # Translators: a plain sentence, not a format string (80% is a percentage).
        # xgettext:no-python-format
        help_text=_("0.8 sends a reminder when 80% of the time for a turn has passed."),
    )
    vacation_days_per_year = models.PositiveSmallIntegerField(default=14)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # Vacation (accounts.vacation): while vacation_until is in the future the player's turn
    # clocks do not run. vacation_days_used counts the days taken in vacation_year.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    #: The secret of the user's calendar feed URL (/calendar/<token>.ics); empty: no feed. A new
    #: one revokes the old address.
    calendar_token = models.CharField(max_length=64, blank=True, default="", db_index=True)
    #: A bot's account: the bot that plays its seats (``random`` or ``heuristic``, the engine's
    #: bots, moved by the server's worker); empty for a person.
    bot_kind = models.CharField(max_length=16, blank=True, default="")
    #: A bot account of a third party (Lichess's model): a program plays it through the API and
    #: the event stream. Set once by ``games.services.bots.bot_account_upgrade``, never unset; its
    #: games are not rated and it is marked as a bot wherever its name is shown.
    bot_account = models.BooleanField(default=False)
    #: The username as a reader sees it (``accounts.names.username_key``), kept in step with the
    #: username by ``accounts.signals``: sign-up refuses a name whose key is taken.
    username_key = models.CharField(max_length=150, blank=True, default="", db_index=True)
    #: The display name as a reader sees it, by the same folding; set by ``save``. Sign-up
    #: refuses a username that reads as someone's display name, as the profile refuses a display
    #: name that reads as someone's username: either way two players would look like one.
    display_name_key = models.CharField(max_length=150, blank=True, default="", db_index=True)
    #: Emails to the player stopped arriving (``accounts.deliverability``): since when, to which
    #: address, and why (``hard_bounce``, ``soft_bounces``, ``rejected``, ``complaint``). Nothing
    #: is sent to that address while it is the player's; cleared when the player confirms a
    #: working address (allauth's confirmation).
    email_undeliverable_at = models.DateTimeField(null=True, blank=True)
    email_undeliverable_address = models.CharField(max_length=254, blank=True, default="")
    email_undeliverable_reason = models.CharField(max_length=16, blank=True, default="")
    #: The address's allauth record was verified and lost that mark when it was found
    #: undeliverable (so allauth's confirmation can confirm it again); the log-in stage still lets
    #: the player in (``accounts.stages``), as before.
    email_unverified_by_bounce = models.BooleanField(default=False)
    #: When the player last confirmed a working address: soft bounces before it no longer count.
    email_confirmed_at = models.DateTimeField(null=True, blank=True)
    #: The last signed-in page view (written at most every ``LAST_SEEN_EVERY`` minutes): a player
    #: seen since their address failed knows about their games without our emails.
    last_seen_at = models.DateTimeField(null=True, blank=True)
    #: The player's Discord user ID (a snowflake: digits only), given on the webhooks page: a
    #: Discord post of their turn mentions them (``<@id>``) and no one else
    #: (``games.webhooks.sending``). Empty: the post mentions nobody.
    discord_user_id = models.CharField(max_length=20, blank=True, default="")
    #: Whether a device of the player's takes turn notices by Web Push (one of their
    #: ``PushSubscription`` rows with ``turns``): kept by ``accounts.push``, read with the seats'
    #: profiles, so a move costs no query for the many players without one.
    push_turns = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Profile({self.user})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Keep ``display_name_key`` in step with ``display_name`` (also for a save of only
        some fields: ``update_fields`` naming the name gains its key)."""
        self.display_name_key = username_key(self.display_name.strip()) if self.display_name else ""
        fields = kwargs.get("update_fields")
        if fields is not None and "display_name" in fields:
            kwargs["update_fields"] = {*fields, "display_name_key"}
        super().save(*args, **kwargs)

    @classmethod
    def name_poses_as_another(cls, display_name: str, user_id: int | None) -> bool:
        """Whether ``display_name`` reads as another account's username (``username_key``):
        "alice" or "Аlice" shown by mallory would pass for alice on every page and email.
        Two players may share a display name ("Tom"); nobody may wear another's username."""
        key = username_key(display_name.strip())
        return bool(key) and cls.objects.filter(username_key=key).exclude(user_id=user_id).exists()

    def notification_modes(self) -> list[str]:
        """The notification modes this account may choose: a bot account (a program) gets no
        emails (docs/BOTS.md), so "none" is its only mode; everyone else chooses any."""
        if self.is_bot:
            return [self.NotificationMode.NONE.value]
        return list(self.NotificationMode.values)

    @property
    def is_bot(self) -> bool:
        """A server bot (``bot_kind``) or a third party's bot account."""
        return bool(self.bot_kind) or self.bot_account

    @property
    def name(self) -> str:
        """What other players see: the display name, else the username."""
        return self.display_name or self.user.get_username()


class TokenInfo(models.Model):
    """What knox does not keep about a personal API token: the name its owner gave it and when it
    was last used (``accounts.tokens``), so that the owner can tell their tokens apart and revoke
    the one they no longer use. A token made before this existed has none (no name, never seen)."""

    token = models.OneToOneField(
        "knox.AuthToken", on_delete=models.CASCADE, primary_key=True, related_name="info"
    )
    name = models.CharField(max_length=60, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"token {self.token_id}: {self.name or '(no name)'}"


class Block(models.Model):
    """``blocker`` keeps ``blocked`` out: no joining the blocker's games, no invitation, no chat
    message the blocker reads, no seat beside them in a tournament. The rule reads both ways
    (``accounts.blocks.blocked_between``): a block stands between two people whoever made it."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class PushSubscription(models.Model):
    """One device (a browser's push subscription, ``PushManager.subscribe``) of a player: where
    its turn notices go (``games.push``). ``turns`` is the device's own choice. A subscription
    its push service reports gone (404, 410) is deleted."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    #: The browser's ECDH public key (P-256, uncompressed, base64url) and auth secret (16 bytes,
    #: base64url): the keys each message is encrypted to (RFC 8291).
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    label = models.CharField(max_length=80, blank=True, default="")
    turns = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"
