"""Leaving a game and substitutes on the pages, with plain forms (no JavaScript needed). Thin:
``games.services.seats`` does the work; the game page's seat card (``games.web.cards.seat``)
shows the buttons, and the lobby lists the seats offered."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import numbers
from games.services import seats as service
from games.services.errors import ServiceError

from .takeback import _back, _refused, _visible_or_404


@require_POST
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Leave this game": only with its confirmation box ticked."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.POST.get("confirm") != "yes":
        # Said as it is (error_text would give a reader of Japanese the generic form error).
        messages.error(request, _("Tick the box to confirm that you leave the game."))
        return _back(game_id, "#seat")
    try:
        service.seat_resign(game_id=game_id, user=request.user)
        messages.success(request, _("You have left the game. The bot plays your seat."))
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id, "#seat")


@require_POST
def game_seeking(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Seek a substitute" (``seeking=yes``) or "Withdraw the offer" (``seeking=no``)."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    want = request.POST.get("seeking")
    try:
        if want not in ("yes", "no"):
            raise ServiceError(_("The form is not valid."), code="invalid_field")
        service.seat_seek(game_id=game_id, user=request.user, seeking=want == "yes")
        messages.success(
            request,
            _("Your seat is offered to substitutes.")
            if want == "yes"
            else _("Your seat is no longer offered."),
        )
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id, "#seat")


@require_POST
def game_substitute(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Take this seat": the seat number posted."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        seat = numbers.from_query(request.POST, "seat", low=0, high=5)
        if seat is None:
            raise ServiceError(_("The form is not valid."), code="invalid_field")
        service.seat_claim(game_id=game_id, user=request.user, seat_no=seat)
        messages.success(request, _("The seat is yours: welcome to the game."))
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id)
