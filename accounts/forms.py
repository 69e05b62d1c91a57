from datetime import date, timedelta
from typing import Any

from allauth.account.adapter import get_adapter
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import POSES_AS_ANOTHER, Profile
from .widgets import LongSelect
from .zones import zone_choices

REMINDER_CHOICES: list[tuple[float, Any]] = [
    (0.5, _("halfway through the turn (50%)")),
    (0.75, _("when a quarter of the time is left (75%)")),
    (0.8, _("when a fifth of the time is left (80%)")),
    (0.9, _("when a tenth of the time is left (90%)")),
]


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(
        label=_("Time zone"),
        choices=[(tz, tz) for tz in zone_choices()],
        # IANA names are proper names: not for translation tools (or the translation tests).
        # Some 500 zones: written in one pass (accounts.widgets), not one template per option.
        widget=LongSelect(attrs={"translate": "no"}),
    )

    reminder_fraction = forms.TypedChoiceField(
        label=_("Reminder email"),
        coerce=float,
        choices=REMINDER_CHOICES,
        help_text=_("Sent once per turn if you have not moved yet."),
    )

    class Meta:
        model = Profile
        fields = [
            "display_name",
            "timezone",
            "language",
            "notification_mode",
            "reminder_fraction",
            "invitations",
        ]

    def clean_invitations(self) -> str:
        return str(self.cleaned_data.get("invitations") or self.instance.invitations)

    def clean_display_name(self) -> str:
        name = str(self.cleaned_data.get("display_name") or "")
        if name and Profile.name_poses_as_another(name, self.instance.user_id):
            raise forms.ValidationError(POSES_AS_ANOTHER, code="name_taken")
        return name

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zone = self.fields["timezone"]
        assert isinstance(zone, forms.ChoiceField)
        zone.choices = [(tz, tz) for tz in zone_choices(self.instance.timezone or None)]
        # Not required: a form without the field (a page loaded before it existed) keeps the
        # player's choice.
        self.fields["invitations"].required = False
        # A bot account gets no emails: "none" is the only mode it is offered (and accepted).
        mode = self.fields["notification_mode"]
        assert isinstance(mode, forms.ChoiceField)
        allowed = self.instance.notification_modes()
        mode.choices = [(v, label) for v, label in Profile.NotificationMode.choices if v in allowed]
        current = float(self.instance.reminder_fraction) if self.instance.pk else None
        # A value set through the API that the list does not offer stays choosable.
        if current is not None and all(v != current for v, _label in REMINDER_CHOICES):
            field = self.fields["reminder_fraction"]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = [*REMINDER_CHOICES, (current, f"{current:.0%}")]


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("What the token is for"),
        max_length=40,
        required=False,
        help_text=_("A reminder for yourself, e.g. 'my bot'."),
    )


def local_today() -> date:
    """Today in the active time zone (the signed-in user's, set by UserLanguageMiddleware)."""
    return timezone.localdate()


class VacationStartForm(forms.Form):
    """A vacation until a date: whole days from today (in the user's time zone) to that date,
    at most the days left this year. ``days`` is set when the form is valid."""

    until = forms.DateField(
        label=_("On vacation until"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d"],
        help_text=_(
            "Your turn clocks stop now and start again at this time of day on that date. "
            "Each day counts against this year's allowance."
        ),
        error_messages={"invalid": _("Enter a date as year-month-day.")},
    )

    def __init__(self, *args: Any, days_left: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.days_left = days_left
        today = local_today()
        self.first = today + timedelta(days=1)
        self.last = today + timedelta(days=max(days_left, 1))
        attrs = self.fields["until"].widget.attrs
        attrs["min"] = self.first.isoformat()
        attrs["max"] = self.last.isoformat()
        attrs["aria-describedby"] = "until-help"
        self.fields["until"].initial = self.first
        self.days = 0

    def clean_until(self) -> date:
        until: date = self.cleaned_data["until"]
        days = (until - local_today()).days
        if days < 1:
            raise forms.ValidationError(_("Choose a date after today."), code="invalid_days")
        if days > self.days_left:
            raise forms.ValidationError(
                ngettext(
                    "You have only %(left)d vacation day left this year: choose %(last)s "
                    "or earlier.",
                    "You have only %(left)d vacation days left this year: choose %(last)s "
                    "or earlier.",
                    self.days_left,
                )
                % {"left": self.days_left, "last": self.last.isoformat()},
                code="not_enough_days",
            )
        self.days = days
        return until


class RateLimitedAdminLoginForm(AdminAuthenticationForm):
    """The admin's login form, counting failed logins with allauth's limits under the same keys
    as the site's login and the API's token login: a name locked out on one is locked out on
    all (Django's own admin form has no limit at all)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            adapter = get_adapter(self.request)
            try:
                self.user_cache = adapter.authenticate(
                    self.request, username=username, password=password
                )
            except forms.ValidationError:
                raise forms.ValidationError(
                    _("Too many failed logins: wait a few minutes."), code="too_many_attempts"
                ) from None
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data
