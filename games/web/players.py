"""A player's public page: rating, reliability, games (``games.players``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games import players


def player_page(request: HttpRequest, username: str) -> HttpResponse:
    user = get_user_model().objects.filter(username=username).select_related("profile").first()
    if user is None:
        raise Http404(_("No such player."))
    profile = getattr(user, "profile", None)
    rating = players.rating_of(user)
    ctx = {
        "player": user,
        "name": (profile.display_name if profile else "") or user.get_username(),
        "is_bot": bool(getattr(profile, "is_bot", False)),
        "rating": rating,
        "reliability": players.reliability(user),
        "games": players.games_of(user),
    }
    return render(request, "games/player.html", ctx)
