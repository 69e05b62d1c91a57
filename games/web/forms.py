"""Forms of the web pages: creating a game, and turning a move form's fields into an action."""

from __future__ import annotations

from typing import TypedDict

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine, numbers
from games.models import DEFAULT_OPTIONS
from games.services import lobby
from games.services.lobby import GameOptions
from games.web.errors import error_text
from powergrid.actions import ACTIONS, Field
from powergrid.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS
from powergrid.maps import load_map, name_in
from powergrid.plants import PLANTS
from powergrid.state import (
    BASE_DECK,
    FIRST_GAME,
    MIXED_DECK,
    NEW_DECK,
    SEALED_BID,
    STANDARD,
)
from powergrid.tables import RESOURCES


class FormProblem(Exception):
    """A move form the server cannot read as an action: ``message`` is the reader's sentence.
    ``status``: 400 where the form holds what no browser sends from its inputs (a number that
    is not one, ``games.numbers``); the page still shows it beside the form."""

    def __init__(self, message: str, code: str = "invalid_field", status: int = 200) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status


#: The largest number a move's field may hold (the engine's bound, powergrid.fields).
MOVE_NUMBER_MAX = 100_000


def _int(post: QueryDict, name: str, *, default: int | None = None) -> int:
    """A move form's number (``games.numbers``: ASCII digits, 0 to ``MOVE_NUMBER_MAX``);
    ``default`` when empty (else empty is refused)."""
    # Anything but digits in bounds raises games.numbers.BadNumber (action_from_post turns it
    # into the form's refusal, a 400); an empty required field is the form's own refusal.
    value = numbers.from_query(post, name, low=0, high=MOVE_NUMBER_MAX, default=default)
    if value is None:
        raise FormProblem(_("Please enter a whole number of 0 or more."))
    return value


class WholeNumberField(forms.IntegerField):
    """Django's integer field reads ``" 1"``, ``"1.0"`` and ``"٣"`` as numbers: this one takes
    ASCII digits only, through ``games.numbers``, within its bounds."""

    def to_python(self, value: object) -> int | None:
        if value in self.empty_values:
            return None
        # The digits here; the field's bounds are its validators' (Django's own sentences).
        negative = self.min_value is not None and self.min_value < 0
        low = -numbers.INT32_MAX if negative else 0
        try:
            return numbers.from_text(value, field="value", low=low, high=numbers.INT32_MAX)
        except numbers.BadNumber:
            raise forms.ValidationError(_("Please enter a whole number."), code="invalid") from None


#: A move's action as the form describes it (the engine judges it: ``powergrid.actions``).
FormAction = dict[str, object]


def _field_value(post: QueryDict, f: Field, action: FormAction) -> object:
    """One action field read from the form's inputs, by how the engine says it is written.

    Inputs: ``int``/``plant``/``count`` a number input named as the field; ``tokens`` one number
    input per resource (``<field>_<resource>``); ``cities``/``plants`` repeated inputs;
    ``hybrid`` a coal input per ticked hybrid plant (``hybrid_<plant>_coal``), the rest oil.
    ``_omit`` means the field is left out of the action."""
    if f.kind in ("int", "plant"):
        if f.kind == "plant" and not post.get(f.name):
            raise FormProblem(_("Choose a plant."))
        return _int(post, f.name)
    if f.kind == "count":
        return _int(post, f.name, default=0)
    if f.kind == "tokens":
        counts = {r: _int(post, f"{f.name}_{r}", default=0) for r in RESOURCES}
        return {r: n for r, n in counts.items() if n} or _OMIT
    if f.kind == "cities":
        return [c for c in post.getlist(f.name) if c]
    if f.kind == "plants":
        plants = []
        for raw in post.getlist(f.name):
            plants.append(numbers.from_text(raw, field=f.name, low=1, high=max(PLANTS)))
        return plants
    # hybrid: the coal of each ticked hybrid plant, the rest of its burn in oil
    hybrid: dict[str, dict[str, int]] = {}
    ticked = action.get("plants")
    for n in ticked if isinstance(ticked, list) else []:
        plant = PLANTS.get(n)
        key = f"hybrid_{n}_coal"
        if plant is not None and plant.fuel == "hybrid" and post.get(key, "").strip() != "":
            coal = _int(post, key)
            if coal > plant.burns:
                raise FormProblem(
                    _("Plant %(plant)s burns %(n)s tokens in all.") % {"plant": n, "n": plant.burns}
                )
            hybrid[str(n)] = {"coal": coal, "oil": plant.burns - coal}
    return hybrid or _OMIT


_OMIT = object()


def action_from_post(post: QueryDict) -> FormAction:
    """The engine action a move form describes (the engine judges whether it is legal); the
    fields and how each is read come from the engine's description of the action type."""
    spec = ACTIONS.get(post.get("action") or "")
    if spec is None:
        raise FormProblem(_("Unknown move."), code="unknown_action")
    action: FormAction = {"type": spec.name}
    for f in spec.fields:
        try:
            value = _field_value(post, f, action)
        except numbers.BadNumber as exc:
            # Every number of the form is read through games.numbers: one refusal for all of
            # them, a sentence beside the form (a 400: no browser's number input sends one).
            text = error_text(exc.code, exc.message, exc.details)
            raise FormProblem(text, code=exc.code, status=400) from None
        if value is not _OMIT:
            action[f.name] = value
    return action


def map_choices() -> list[tuple[str, str]]:
    return [(slug, load_map(slug).name_en) for slug in engine.maps_available()]


def bot_level_choices() -> list[tuple[str, str]]:
    """The bot levels, weakest first, with their names in the reader's language."""
    return [(name, _(LEVELS[name].bot_label)) for name in LEVEL_NAMES]


class AreaBox(TypedDict):
    """An area's checkbox of the create form."""

    slug: str
    label: str
    checked: bool


class MapAreas(TypedDict):
    """A map's areas on the create form (``templates/games/new.html``)."""

    map: str
    name: str
    areas: list[AreaBox]
    required: list[str]


class GameCreateForm(forms.Form):
    map = forms.ChoiceField(label=gettext_lazy("Map"))
    max_players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=[(n, str(n)) for n in range(lobby.PLAYERS_MIN, lobby.PLAYERS_MAX + 1)],
        coerce=int,
        initial=4,
    )
    area_mode = forms.ChoiceField(
        label=gettext_lazy("Areas in play"),
        choices=[
            ("random", gettext_lazy("Drawn at random")),
            ("chosen", gettext_lazy("I choose them")),
        ],
        initial="random",
        widget=forms.RadioSelect,
    )
    # The bounds are the lobby service's (games.services.lobby), which checks them again.
    turn_hours = WholeNumberField(
        label=gettext_lazy("Hours per turn"),
        min_value=lobby.TURN_HOURS_MIN,
        max_value=lobby.TURN_HOURS_MAX,
        initial=DEFAULT_OPTIONS["turn_hours"],
        help_text=gettext_lazy("From 12 hours to 168 hours (7 days)."),
        widget=forms.NumberInput(attrs={"step": 1, "inputmode": "numeric"}),
    )
    pause_weekends = forms.BooleanField(
        label=gettext_lazy(
            "Pause the clocks on weekends (Saturday and Sunday in each player's time zone)"
        ),
        required=False,
    )
    timeouts_before_bot = WholeNumberField(
        label=gettext_lazy("Missed deadlines in a row before the bot plays for a player"),
        min_value=0,
        max_value=lobby.TIMEOUTS_BEFORE_BOT_MAX,
        initial=DEFAULT_OPTIONS["timeouts_before_bot"],
        required=False,
        help_text=gettext_lazy("0: the bot never plays; the default move is made instead."),
        widget=forms.NumberInput(attrs={"step": 1, "inputmode": "numeric"}),
    )
    bot_level = forms.ChoiceField(
        label=gettext_lazy("The bot that plays for a player after missed deadlines"),
        choices=bot_level_choices,
        initial=DEFAULT_LEVEL,
        required=False,
    )
    auto_start = forms.BooleanField(
        label=gettext_lazy("Start the game by itself when the last seat fills"),
        required=False,
        initial=True,
    )
    chat_public = forms.BooleanField(
        label=gettext_lazy("Let people who do not play read the chat"),
        required=False,
    )
    private = forms.BooleanField(
        label=gettext_lazy("By invitation only (not listed; you invite players or give a link)"),
        required=False,
    )
    min_on_time = WholeNumberField(
        label=gettext_lazy("Only players with at least this percentage of turns in time"),
        help_text=gettext_lazy("0: anyone. Players without a record yet may join."),
        min_value=0,
        max_value=100,
        initial=0,
        required=False,
        widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}),
    )
    first_game = forms.BooleanField(
        label=gettext_lazy("First-game variant (step 1 only; the game ends at 7 cities)"),
        required=False,
    )
    plant_deck = forms.ChoiceField(
        label=gettext_lazy("Power plant deck"),
        choices=[
            (BASE_DECK, gettext_lazy("The base game's plants")),
            (NEW_DECK, gettext_lazy("New Power Plants: the new deck alone")),
            (MIXED_DECK, gettext_lazy("New Power Plants mixed with the base game's plants")),
        ],
        initial=BASE_DECK,
        required=False,
    )
    takebacks = WholeNumberField(
        label=gettext_lazy("Take-backs each player may make alone"),
        min_value=0,
        max_value=lobby.TAKEBACKS_MAX,
        initial=DEFAULT_OPTIONS["takebacks"],
        required=False,
        help_text=gettext_lazy(
            "Their own last move, while nobody else has moved and it revealed nothing. Asking "
            "the others to agree is always possible."
        ),
        widget=forms.NumberInput(attrs={"step": 1, "inputmode": "numeric"}),
    )
    takebacks_rated = forms.BooleanField(
        label=gettext_lazy(
            "Allow take-backs even if the game is rated (all seats people; otherwise a rated "
            "game has none)"
        ),
        required=False,
    )
    sheets = forms.BooleanField(
        label=gettext_lazy(
            "Round sheets: every player answers once a round, all at the same time, from a sheet "
            "filled in with a suggestion (a 4-player game in about 10 rounds of answers). "
            "Untick to play move by move; a player may always answer move by move."
        ),
        required=False,
        initial=True,
    )
    sealed_bids = forms.BooleanField(
        label=gettext_lazy(
            "House rule: sealed-bid auctions. Everyone bids once, at the same time, for each "
            "plant put up, so the game waits far less; the published rules never hide a bid."
        ),
        required=False,
        initial=False,
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("first_game") and data.get("sealed_bids"):
            raise forms.ValidationError(
                _("Choose one variant: the first-game variant or sealed-bid auctions.")
            )
        return data

    def __init__(self, data: QueryDict | None = None, *, lang: str = "en") -> None:
        super().__init__(data)
        self.lang = lang
        maps = engine.maps_available()
        map_field = self.fields["map"]
        assert isinstance(map_field, forms.ChoiceField)
        map_field.choices = [(s, name_in(load_map(s), lang)) for s in maps]
        map_field.initial = "germany" if "germany" in maps else maps[0]

    def area_fields(self) -> list[MapAreas]:
        """Per map, the area checkboxes (``areas_<map>``) as (slug, label, checked)."""
        out: list[MapAreas] = []
        data = self.data if self.is_bound else {}
        for slug in engine.maps_available():
            gmap = load_map(slug)
            picked = set(data.getlist(f"areas_{slug}")) if hasattr(data, "getlist") else set()
            out.append(
                {
                    "map": slug,
                    "name": name_in(gmap, self.lang),
                    "areas": [
                        {
                            "slug": a.slug,
                            "label": name_in(a, self.lang),
                            "checked": a.slug in picked,
                        }
                        for a in gmap.areas.values()
                    ],
                    "required": sorted(gmap.required_areas),
                }
            )
        return out

    def options(self) -> GameOptions:
        """The game options for games.services.game_create (after is_valid)."""
        d = self.cleaned_data
        return {
            "turn_hours": d["turn_hours"],
            "pause_weekends": bool(d.get("pause_weekends")),
            "timeouts_before_bot": (
                DEFAULT_OPTIONS["timeouts_before_bot"]
                if d.get("timeouts_before_bot") is None
                else d["timeouts_before_bot"]
            ),
            "variant": (
                FIRST_GAME
                if d.get("first_game")
                else SEALED_BID
                if d.get("sealed_bids")
                else STANDARD
            ),
            "plant_deck": d.get("plant_deck") or BASE_DECK,
            "auto_start": bool(d.get("auto_start")),
            "chat_public": bool(d.get("chat_public")),
            "private": bool(d.get("private")),
            "min_on_time": int(d.get("min_on_time") or 0),
            "takebacks": (
                DEFAULT_OPTIONS["takebacks"] if d.get("takebacks") is None else d["takebacks"]
            ),
            "takebacks_rated": bool(d.get("takebacks_rated")),
            "bot_level": d.get("bot_level") or DEFAULT_LEVEL,
            "sheets": bool(d.get("sheets")),
            # Not asked on this form (the API's option; a tournament's tables take none).
            "substitutes": DEFAULT_OPTIONS["substitutes"],
        }

    def chosen_areas(self) -> list[str] | None:
        if self.cleaned_data.get("area_mode") != "chosen":
            return None
        data = self.data
        assert isinstance(data, QueryDict)  # bound from request.POST: areas are repeated keys
        return list(data.getlist(f"areas_{self.cleaned_data['map']}"))
