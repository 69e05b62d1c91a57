import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Profile


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(
        label=_("Time zone"),
        choices=[(tz, tz) for tz in sorted(zoneinfo.available_timezones())],
    )

    class Meta:
        model = Profile
        fields = ["display_name", "timezone", "language", "notification_mode", "reminder_fraction"]


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("What the token is for"),
        max_length=40,
        required=False,
        help_text=_("A reminder for yourself, e.g. 'my bot'."),
    )
