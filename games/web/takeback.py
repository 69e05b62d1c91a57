"""Take-backs and practice games on the pages, with plain forms (no JavaScript needed). Thin:
``games.services.takeback`` and ``games.services.practice`` do the work; what the game page
shows of them is the take-back and practice cards (``games.web.cards.takeback``,
``games.web.cards.practice``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import numbers, selectors, takebacks
from games.models import Move
from games.services import practice
from games.services import takeback as service
from games.services.errors import ServiceError

from .errors import error_text


def _visible_or_404(request: HttpRequest, game_id: int) -> None:
    """THE rule (``selectors.game_for``), first: a game the visitor may not see is no game, as
    ``games.web.common.game_or_404`` answers."""
    if selectors.game_for(game_id=game_id, user=request.user) is None:
        raise Http404(_("No such game."))


def _int(post: QueryDict, name: str) -> int | None:
    """A position or seat of the form (``games.numbers``); ``None`` when absent."""
    return numbers.from_query(post, name, low=0, high=numbers.INT32_MAX)


def _back(game_id: int, anchor: str = "") -> HttpResponse:
    return HttpResponseRedirect(reverse("game", args=[game_id]) + anchor)


def _refused(request: HttpRequest, exc: ServiceError) -> None:
    messages.error(request, error_text(exc.code, exc.message, exc.details))


@require_POST
def game_takeback(request: HttpRequest, game_id: int) -> HttpResponse:
    """The take-back button: ``how`` = ``now`` (alone, at once) or ``ask`` (the others)."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    expected = _int(request.POST, "expected_seq")
    how = request.POST.get("how")
    try:
        if expected is None or how not in (takebacks.NOW, takebacks.ASK):
            raise ServiceError("The form is not valid.", code="invalid_field")
        if how == takebacks.NOW:
            service.takeback_now(
                game_id=game_id, user=request.user, expected_seq=expected, source=Move.Source.WEB
            )
            messages.success(request, _("Your move was taken back: make it again."))
        else:
            answer = service.takeback_ask(
                game_id=game_id, user=request.user, expected_seq=expected, source=Move.Source.WEB
            )
            if answer.result is not None:
                messages.success(request, _("Everyone agreed: your move was taken back."))
            else:
                messages.success(
                    request, _("The other players are asked; the game waits for their answers.")
                )
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id)


@require_POST
def game_takeback_answer(request: HttpRequest, game_id: int, request_id: int) -> HttpResponse:
    """A request's buttons: ``answer`` = ``accept``, ``decline`` or (the asker) ``withdraw``."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    answer = request.POST.get("answer")
    try:
        if answer == "withdraw":
            service.takeback_withdraw(game_id=game_id, request_id=request_id, user=request.user)
            messages.success(request, _("Your request was withdrawn."))
        elif answer in ("accept", "decline"):
            done = service.takeback_answer(
                game_id=game_id,
                request_id=request_id,
                user=request.user,
                accept=answer == "accept",
                source=Move.Source.WEB,
            )
            if done.result is not None:
                messages.success(request, _("Everyone agreed: the moves were taken back."))
            elif answer == "accept":
                messages.success(request, _("You agreed; the others are still asked."))
            else:
                messages.success(request, _("You refused: the moves stand."))
        else:
            raise ServiceError("The form is not valid.", code="invalid_field")
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id)


@require_POST
def game_practice(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Practise from here": a practice game against the bots, then its page."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    seq, seat = _int(request.POST, "seq"), _int(request.POST, "seat")  # a 400 if not numbers
    try:
        game = practice.practice_create(
            user=request.user,
            game_id=game_id,
            seq=seq,
            seat=seat,
            emails=bool(request.POST.get("emails")),
            level=request.POST.get("level") or None,
        )
    except ServiceError as exc:
        _refused(request, exc)
        if seq is not None:
            return HttpResponseRedirect(reverse("game_history", args=[game_id, seq]))
        return _back(game_id)
    messages.success(request, _("Your practice game has started: the bots play the other seats."))
    return _back(game.pk)
