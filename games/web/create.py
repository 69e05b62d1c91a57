"""Creating a game: the form (map, players, areas, options) and its maps drawn small."""

from __future__ import annotations

from typing import TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from games import describe, services

from . import board_svg, present
from .common import lang, with_user_timezone
from .errors import error_text
from .forms import GameCreateForm


@login_required
@with_user_timezone
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST or None, lang=lang())
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            game = services.game_create(
                creator=request.user,
                map=d["map"],
                max_players=d["max_players"],
                areas=form.chosen_areas(),
                options=form.options(),
            )
        except services.ServiceError as exc:
            form.add_error(None, error_text(exc.code, exc.message))
        else:
            messages.success(request, _("Game created. Share its page with the other players."))
            return HttpResponseRedirect(reverse("game", args=[game.pk]))
    return render(
        request, "games/new.html", _create_context(form), status=400 if form.errors else 200
    )


class CreatePage(TypedDict):
    form: GameCreateForm
    maps: list[dict[str, object]]
    area_counts: str


def _create_context(form: GameCreateForm) -> CreatePage:
    reader = lang()
    maps: list[dict[str, object]] = []
    for group in form.area_fields():
        maps.append(
            {
                **group,
                "rules": describe.map_rules_describe(group["map"], reader),
                "svg": board_svg.render_board(
                    map_slug=group["map"], areas=None, lang=reader, small=True
                ),
            }
        )
    return {"form": form, "maps": maps, "area_counts": present.areas_by_player_count()}
