"""A user's profile: what the game server needs beyond django.contrib.auth's User."""

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


def validate_timezone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("Unknown time zone: %(tz)s"), params={"tz": value})


class Profile(models.Model):
    class Language(models.TextChoices):
        EN = "en", "English"
        JA = "ja", "日本語"

    class NotificationMode(models.TextChoices):
        EVERY_TURN = "every_turn", _("An email for every turn")
        DIGEST = "digest", _("A daily digest")
        NONE = "none", _("No emails")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    timezone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_timezone]
    )
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.EN
    )
    notification_mode = models.CharField(
        _("notifications"),
        max_length=16,
        choices=NotificationMode.choices,
        default=NotificationMode.EVERY_TURN,
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
    # Vacation (games.deadlines.vacation): while vacation_until is in the future the player's turn
    # clocks do not run. vacation_days_used counts the days taken in vacation_year.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"Profile({self.user})"

    @property
    def name(self) -> str:
        """What other players see: the display name, else the username."""
        return self.display_name or self.user.get_username()
