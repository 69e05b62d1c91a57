"""The board after a past move: its page (the game page as it was, read-only) and the no-JS
form that jumps to it."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_GET

from games import numbers
from games.models import Game

from .common import game_or_404, with_user_timezone
from .game import render_game


@require_GET
@with_user_timezone
def game_history(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    game = game_or_404(request, game_id, seats=True)
    if game.status == Game.Status.OPEN:
        raise Http404()
    if seq > game.seq:
        raise Http404()
    return render_game(request, game, history_seq=seq)


@require_GET
def game_history_jump(request: HttpRequest, game_id: int) -> HttpResponse:
    """The no-JS "board after move N" form: redirect to that move's history page."""
    game = game_or_404(request, game_id)
    asked = numbers.from_query(request.GET, "seq", low=0, high=numbers.INT32_MAX)
    seq = game.seq if asked is None else min(asked, game.seq)
    return HttpResponseRedirect(reverse("game_history", args=[game.pk, seq]))
