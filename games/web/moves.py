"""A move sent from the game page's forms: recorded (``games.services.move_submit``), or
refused with the error beside the form, the form as it was sent, and what it meant (so that the
page fills it again only while it means the same).

A move recorded lands the player on its confirmation, not at the top of the page: the redirect's
fragment names it (``#move-done``), and it is focusable and autofocused, so the focus is there
without JavaScript; the next Tab stop is what there is to do next (take it back, or the next
move's form). A screen-reader player is not sent back through the site's menu after each move."""

from __future__ import annotations

from typing import cast
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import numbers, selectors, services
from games.models import Game, Move

from . import present
from .common import fresh, game_or_404, with_user_timezone
from .context import Refusal
from .errors import error_text
from .forms import FormProblem, action_from_post
from .game import MOVE_DONE_KEY, REFUSED_KEY, render_game


@require_POST
@with_user_timezone
def game_move(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(request, game_id)
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse(settings.LOGIN_URL)}?next={request.path}")
    if request.POST.get("preview") and request.POST.get("action") == "build":
        query = urlencode(
            [("preview", "1")] + [("cities", c) for c in request.POST.getlist("cities")]
        )
        return HttpResponseRedirect(f"{reverse('game', args=[game.pk])}?{query}#move")
    form_id = (request.POST.get("form_id") or "")[:64] or None
    # A form without its position (or a hostile one) is a stale form: refused as one.
    seen = numbers.from_query(request.POST, "expected_seq", low=0, high=numbers.INT32_MAX)
    expected_seq = -1 if seen is None else seen
    if form_id and _already_applied(game, request.user, form_id):
        return _done(request, game, _("That move was already recorded."))
    try:
        action = action_from_post(request.POST)
    except FormProblem as exc:
        if exc.status >= 400:
            # A number that is not one: no browser sends it from the form's inputs, so a 400,
            # but the game page with the sentence beside the form (not a bare error page).
            return _refused_here(request, game, exc.code, exc.message, status=exc.status)
        return _refused(request, game, exc.code, exc.message)
    try:
        services.move_submit(
            game_id=game.pk,
            user=request.user,
            action=action,
            expected_seq=expected_seq,
            source=Move.Source.WEB,
            idempotency_key=form_id,
        )
    except services.StaleState as exc:
        if form_id and _already_applied(fresh(game), request.user, form_id):
            return _done(request, game, _("That move was already recorded."))
        return _refused(request, game, exc.code, error_text(exc.code, exc.message))
    except services.ServiceError as exc:
        return _refused(request, game, exc.code, error_text(exc.code, exc.message, exc.details))
    return _done(request, game, _("Your move was recorded."))


def _done(request: HttpRequest, game: Game, text: str) -> HttpResponse:
    """To the game's page at the move's confirmation (shown once, focused: ``#move-done``, just
    above the take-back bar and the move card)."""
    request.session[MOVE_DONE_KEY] = {"game": game.pk, "text": text}
    return HttpResponseRedirect(reverse("game", args=[game.pk]) + "#move-done")


def _already_applied(game: Game, user: selectors.Reader, form_id: str) -> bool:
    uid = cast(int, getattr(user, "pk", None))  # signed in (``game_move`` asks first)
    return Move.objects.filter(game=game, user_id=uid, idempotency_key=form_id).exists()


#: What of a refused form is kept to fill it again (the rest is the form's own bookkeeping).
_NOT_KEPT = {"csrfmiddlewaretoken", "form_id", "expected_seq", "preview"}


def _refusal(request: HttpRequest, game: Game, code: str, text: str) -> Refusal:
    """What a refused move's page shows: the error, the form as it was sent, what it meant."""
    posted = {
        k[:40]: [v[:64] for v in vals[:60]]
        for k, vals in list(request.POST.lists())[:40]
        if k not in _NOT_KEPT
    }
    return {
        "error": {"code": code, "text": text},
        "posted": posted,
        "posted_meaning": _sent_meaning(request, game),
    }


def _refused(request: HttpRequest, game: Game, code: str, text: str) -> HttpResponse:
    """A refused move: back to the game's own address (not /move/, which a reload or a bookmark
    cannot open), its move card in view, the error beside the form, the form as it was sent."""
    refusal = _refusal(request, game, code, text)
    request.session[REFUSED_KEY] = {
        "game": game.pk,
        "error": refusal["error"],
        "posted": refusal["posted"],
        "meaning": refusal["posted_meaning"],
    }
    return HttpResponseRedirect(reverse("game", args=[game.pk]) + "#move", status=303)


def _refused_here(
    request: HttpRequest, game: Game, code: str, text: str, *, status: int
) -> HttpResponse:
    """A refused move answered with ``status`` (a 4xx) and the game page itself, not a redirect:
    the error beside the form and the form as it was sent, as ``_refused`` leads to."""
    refusal = _refusal(request, game, code, text)
    return render_game(
        request,
        game,
        status=status,
        error=refusal["error"],
        posted=refusal["posted"],
        posted_meaning=refusal["posted_meaning"],
    )


def _sent_meaning(request: HttpRequest, game: Game) -> present.FormMeaning | None:
    """What the refused form was about (``present.form_meaning``): of the state it was filled in
    on, the move its ``expected_seq`` names; of the state now when that is not a past move."""
    game = fresh(game)
    if game.status == Game.Status.OPEN or not game.state_json:
        return None
    try:
        seq = int(request.POST.get("expected_seq", ""))
    except ValueError:
        seq = -1
    if 0 <= seq < game.seq:
        state = selectors.game_history_state_for(game, request.user, seq)
    else:
        state = selectors.game_state_for(game, request.user)
    return present.form_meaning(state)
