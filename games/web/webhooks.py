"""The webhooks page (/webhooks/): add (for all one's games, or one game's every turn), test and
delete webhooks with plain forms. Thin: ``games.webhooks.services`` does the work."""

from __future__ import annotations

from allauth.account.decorators import reauthentication_required
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import numbers
from games.models import Game, Seat
from games.services.errors import ServiceError
from games.webhooks import services
from games.webhooks.events import EVENTS

from .errors import error_text


def _adds(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("op", "add") not in (
        "delete",
        "test",
        "discord",
    )


@login_required
@require_http_methods(["GET", "POST"])
# A webhook keeps posting after the session ends: adding one asks for the password again
# (accounts.reauth; a session from an email's link never gave it). Deleting, testing and the
# Discord user ID (who a post mentions) do not.
@reauthentication_required(enabled=_adds)
def webhooks_page(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        op = request.POST.get("op", "add")
        try:
            hook_id = numbers.from_query(request.POST, "id", low=0, high=numbers.ID_MAX) or 0
            if op == "discord":
                services.discord_id_set(
                    user=request.user, value=request.POST.get("discord_user_id", "")
                )
                messages.success(request, _("Your Discord user ID was saved."))
            elif op == "delete":
                services.webhook_delete(owner=request.user, webhook_id=hook_id)
                messages.success(request, _("The webhook was deleted."))
            elif op == "test":
                services.webhook_test(owner=request.user, webhook_id=hook_id)
                messages.success(request, _("A test event is on its way."))
            else:
                services.webhook_create(
                    owner=request.user,
                    url=request.POST.get("url", ""),
                    format=request.POST.get("format", "generic"),
                    events=[e for e in EVENTS if request.POST.get(e)] or None,
                    game_id=numbers.from_query(request.POST, "game", low=1, high=numbers.ID_MAX),
                )
                messages.success(request, _("The webhook was added."))
            return HttpResponseRedirect(reverse("webhooks"))
        except ServiceError as exc:
            error = {"code": exc.code, "text": error_text(exc.code, exc.message, exc.details)}
    mine = Seat.objects.filter(user_id=int(request.user.pk or 0)).values("game_id")
    games = Game.objects.filter(pk__in=mine).exclude(status=Game.Status.FINISHED)
    ctx = {
        "hooks": services.webhooks_of(request.user),
        "games": list(games.order_by("-created_at")[:50]),
        "error": error,
        "posted": request.POST if request.method == "POST" else {},
        "events": EVENTS,
        "discord_user_id": services.discord_id_of(request.user),
    }
    return render(request, "games/webhooks.html", ctx, status=400 if error else 200)
