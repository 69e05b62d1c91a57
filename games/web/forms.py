"""Forms of the web pages: creating a game, and turning a move form's fields into an action."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import powergrid
from games import engine
from games.models import DEFAULT_OPTIONS
from games.services import lobby
from powergrid.maps import load_map
from powergrid.plants import PLANTS
from powergrid.tables import RESOURCES

MOVE_TYPES = powergrid.ACTION_TYPES


class FormProblem(Exception):
    def __init__(self, message: str, code: str = "invalid_field") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _int(post: Any, name: str, *, default: int | None = None) -> int:
    raw = (post.get(name) or "").strip()
    if raw == "" and default is not None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise FormProblem(_("Please enter a whole number.")) from None
    if value < 0:
        raise FormProblem(_("Please enter a number of 0 or more."))
    return value


def action_from_post(post: Any) -> dict[str, Any]:
    """The engine action a move form describes (the engine judges whether it is legal)."""
    t = post.get("action")
    if t not in MOVE_TYPES:
        raise FormProblem(_("Unknown move."), code="unknown_action")
    if t in ("pass_auction", "pass_bid"):
        return {"type": t}
    if t == "choose_plant":
        if not post.get("plant"):
            raise FormProblem(_("Choose a plant to auction."))
        return {"type": t, "plant": _int(post, "plant"), "bid": _int(post, "bid")}
    if t == "bid":
        return {"type": t, "amount": _int(post, "amount")}
    if t == "discard_plant":
        if not post.get("plant"):
            raise FormProblem(_("Choose the plant to discard."))
        action: dict[str, Any] = {"type": t, "plant": _int(post, "plant")}
        drop = {r: _int(post, f"drop_{r}", default=0) for r in RESOURCES}
        if any(drop.values()):
            action["drop"] = {r: n for r, n in drop.items() if n}
        return action
    if t == "buy_resources":
        return {"type": t, **{r: _int(post, r, default=0) for r in RESOURCES}}
    if t == "build":
        return {"type": t, "cities": [c for c in post.getlist("cities") if c]}
    # power
    plants = []
    for raw in post.getlist("plants"):
        try:
            plants.append(int(raw))
        except ValueError:
            raise FormProblem(_("Unknown plant.")) from None
    action = {"type": "power", "plants": plants}
    hybrid: dict[str, dict[str, int]] = {}
    for n in plants:
        plant = PLANTS.get(n)
        key = f"hybrid_{n}_coal"
        if plant is not None and plant.fuel == "hybrid" and post.get(key, "").strip() != "":
            coal = _int(post, key)
            if coal > plant.burns:
                raise FormProblem(
                    _("Plant %(plant)s burns %(n)s tokens in all.") % {"plant": n, "n": plant.burns}
                )
            hybrid[str(n)] = {"coal": coal, "oil": plant.burns - coal}
    if hybrid:
        action["hybrid"] = hybrid
    return action


def map_choices() -> list[tuple[str, str]]:
    return [(slug, load_map(slug).name_en) for slug in engine.maps_available()]


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
    turn_hours = forms.IntegerField(
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
    timeouts_before_bot = forms.IntegerField(
        label=gettext_lazy("Missed deadlines in a row before the bot plays for a player"),
        min_value=0,
        max_value=lobby.TIMEOUTS_BEFORE_BOT_MAX,
        initial=DEFAULT_OPTIONS["timeouts_before_bot"],
        required=False,
        help_text=gettext_lazy("0: the bot never plays; the default move is made instead."),
        widget=forms.NumberInput(attrs={"step": 1, "inputmode": "numeric"}),
    )
    first_game = forms.BooleanField(
        label=gettext_lazy("First-game variant (step 1 only; the game ends at 7 cities)"),
        required=False,
    )

    def __init__(self, *args: Any, lang: str = "en", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang
        maps = engine.maps_available()
        map_field = self.fields["map"]
        assert isinstance(map_field, forms.ChoiceField)
        map_field.choices = [
            (s, load_map(s).name_ja if lang == "ja" else load_map(s).name_en) for s in maps
        ]
        map_field.initial = "germany" if "germany" in maps else maps[0]

    def area_fields(self) -> list[dict[str, Any]]:
        """Per map, the area checkboxes (``areas_<map>``) as (slug, label, checked)."""
        out = []
        data = self.data if self.is_bound else {}
        for slug in engine.maps_available():
            gmap = load_map(slug)
            picked = set(data.getlist(f"areas_{slug}")) if hasattr(data, "getlist") else set()
            out.append(
                {
                    "map": slug,
                    "name": gmap.name_ja if self.lang == "ja" else gmap.name_en,
                    "areas": [
                        {
                            "slug": a.slug,
                            "label": a.name_ja if self.lang == "ja" else a.name_en,
                            "checked": a.slug in picked,
                        }
                        for a in gmap.areas.values()
                    ],
                    "required": sorted(gmap.required_areas),
                }
            )
        return out

    def options(self) -> dict[str, Any]:
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
            "variant": "first_game" if d.get("first_game") else "standard",
        }

    def chosen_areas(self) -> list[str] | None:
        if self.cleaned_data.get("area_mode") != "chosen":
            return None
        data = self.data
        assert isinstance(data, QueryDict)  # bound from request.POST: areas are repeated keys
        return list(data.getlist(f"areas_{self.cleaned_data['map']}"))
