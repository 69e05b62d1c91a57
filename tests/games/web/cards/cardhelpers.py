"""Helpers for the game page's card tests: the ``Viewing`` a card is made from, for a reader of
a game, and a card's include rendered with the presenter's answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.template.loader import render_to_string
from django.test import RequestFactory

from games import selectors
from games.models import Game
from games.web.cards.viewing import Viewing, viewing
from games.web.common import seat_names
from games.web.present import form_meaning


def view_for(
    game: Game,
    user: Any,
    *,
    query: str = "",
    history_seq: int | None = None,
    posted: dict[str, list[str]] | None = None,
) -> Viewing:
    """What the page would make its cards from for ``user`` (None: a visitor not signed in)."""
    game = Game.objects.get(pk=game.pk)
    request = RequestFactory().get(f"/games/{game.pk}/" + (f"?{query}" if query else ""))
    request.user = user if user is not None else AnonymousUser()
    request.session = SessionStore()
    return viewing(
        request,
        game,
        me=selectors.seat_of(game, request.user),
        names=seat_names(game),
        lang="en",
        history_seq=history_seq,
        build_selected=None,
        calc_query=request.GET if "calc" in request.GET else None,
        posted=posted,
        # A form sent on the state now (the page keeps it while it means the same).
        posted_meaning=form_meaning(selectors.game_state_for(game, request.user))
        if posted
        else None,
    )


def render_card(card: str, view: Viewing, part: Mapping[str, object]) -> str:
    """The card's include, with what the page has around it (the game, the state, the seq)."""
    context = {
        "game": view.game,
        "me": view.me,
        "state": view.state,
        "seq": view.game.seq,
        "history_seq": view.history_seq,
        "names": view.names,
        **part,
    }
    return render_to_string(f"games/cards/{card}.html", context, request=view.request)
