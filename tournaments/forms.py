"""The tournament and league create pages' forms: every field with a sensible default, each
refusal named beside its field (the services, ``tournaments.services.tournament_create`` and
``tournaments.leagues.league_create``, check them again for every caller and name the field
they refuse). The fields both share (name, maps, table sizes, rounds, turn limit) are declared
once, in ``_TablesForm``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.services import lobby
from games.web.forms import WholeNumberField
from powergrid.maps import load_map, name_in
from tournaments import leagues, seating, services

_SIZES = [(n, str(n)) for n in range(seating.TABLE_LIMITS[0], seating.TABLE_LIMITS[1] + 1)]
_NUMBER = {"step": 1, "inputmode": "numeric"}


class _TablesForm(forms.Form):
    """What a tournament and a league both set: their tables and rounds."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=services.NAME_MAX, strip=True)
    maps = forms.MultipleChoiceField(
        label=gettext_lazy("Maps"),
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Each table plays one of them."),
    )
    table_min = forms.TypedChoiceField(
        label=gettext_lazy("Fewest players at a table"), choices=_SIZES, coerce=int, initial=3
    )
    table_max = forms.TypedChoiceField(
        label=gettext_lazy("Most players at a table"), choices=_SIZES, coerce=int, initial=5
    )
    rounds = WholeNumberField(
        label=gettext_lazy("Rounds"),
        min_value=1,
        max_value=services.ROUNDS_MAX,
        initial=3,
        widget=forms.NumberInput(attrs=_NUMBER),
    )
    turn_hours = WholeNumberField(
        label=gettext_lazy("Hours per turn"),
        min_value=lobby.TURN_HOURS_MIN,
        max_value=lobby.TURN_HOURS_MAX,
        initial=24,
        help_text=gettext_lazy("From 12 hours to 168 hours (7 days)."),
        widget=forms.NumberInput(attrs=_NUMBER),
    )
    play = forms.BooleanField(label=gettext_lazy("I play in it too"), required=False, initial=True)

    #: The fields the create service takes (the rest, ``play``, are the page's own).
    SERVICE_FIELDS: tuple[str, ...] = (
        "name",
        "maps",
        "table_min",
        "table_max",
        "rounds",
        "turn_hours",
    )

    def __init__(self, data: QueryDict | None = None, *, lang: str = "en") -> None:
        super().__init__(data)
        maps = engine.maps_available()
        field = self.fields["maps"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = [(s, name_in(load_map(s), lang)) for s in maps]
        field.initial = ["germany"] if "germany" in maps else maps[:1]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("table_min"), data.get("table_max")
        if low is not None and high is not None and high < low:
            self.add_error(
                "table_max", _("The most players at a table cannot be fewer than the fewest.")
            )
        return data

    def service_fields(self) -> dict[str, Any]:
        """The keyword arguments of the create service (after ``is_valid``)."""
        return {key: self.cleaned_data[key] for key in self.SERVICE_FIELDS}


class TournamentCreateForm(_TablesForm):
    signup_deadline = forms.DateTimeField(
        label=gettext_lazy("Sign-up deadline (optional)"),
        required=False,
        help_text=gettext_lazy(
            "It starts by itself then, in your time zone; without one, you start it."
        ),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    rating_min = WholeNumberField(
        label=gettext_lazy("Lowest rating (optional)"),
        required=False,
        min_value=services.RATING_LIMITS[0],
        max_value=services.RATING_LIMITS[1],
        widget=forms.NumberInput(attrs=_NUMBER),
    )
    rating_max = WholeNumberField(
        label=gettext_lazy("Highest rating (optional)"),
        required=False,
        min_value=services.RATING_LIMITS[0],
        max_value=services.RATING_LIMITS[1],
        widget=forms.NumberInput(attrs=_NUMBER),
    )
    private = forms.BooleanField(
        label=gettext_lazy("By invitation only (not listed; players join with its link)"),
        required=False,
    )

    SERVICE_FIELDS = (
        *_TablesForm.SERVICE_FIELDS,
        "private",
        "signup_deadline",
        "rating_min",
        "rating_max",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and high < low:
            self.add_error("rating_max", _("The highest rating cannot be below the lowest."))
        deadline: datetime | None = data.get("signup_deadline")
        if deadline is not None and deadline <= timezone.now():
            self.add_error("signup_deadline", _("The sign-up deadline must be in the future."))
        return data


class LeagueCreateForm(_TablesForm):
    """A league's settings: its tables and rounds (a season's), and its divisions."""

    rounds = WholeNumberField(
        label=gettext_lazy("Rounds a season"),
        min_value=1,
        max_value=services.ROUNDS_MAX,
        initial=3,
        widget=forms.NumberInput(attrs=_NUMBER),
    )
    division_size = WholeNumberField(
        label=gettext_lazy("Most members in a division"),
        min_value=3,
        max_value=leagues.DIVISION_SIZE_MAX,
        initial=9,
        help_text=gettext_lazy("At least the most players at a table."),
        widget=forms.NumberInput(attrs=_NUMBER),
    )
    movers = WholeNumberField(
        label=gettext_lazy("Players moving up and down"),
        min_value=leagues.MOVERS_LIMITS[0],
        max_value=leagues.MOVERS_LIMITS[1],
        initial=2,
        help_text=gettext_lazy(
            "After each season, at each division's boundary; at most half a division."
        ),
        widget=forms.NumberInput(attrs=_NUMBER),
    )

    SERVICE_FIELDS = (*_TablesForm.SERVICE_FIELDS, "division_size", "movers")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        high, size = data.get("table_max"), data.get("division_size")
        if high is not None and size is not None and size < high:
            self.add_error(
                "division_size",
                _("A division must hold at least the most players at a table."),
            )
        movers = data.get("movers")
        if size is not None and movers is not None and movers > leagues.movers_most(size):
            self.add_error("movers", _("At most half a division can move up or down."))
        return data
