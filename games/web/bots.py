"""The bot account page (/account/bot/): what a bot account is, and the one-way switch.
Thin: ``games.services.bots`` does the work."""

from __future__ import annotations

from allauth.account.decorators import reauthentication_required
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.site import absolute
from games.models import Seat
from games.services import bots
from games.services.errors import ServiceError

from .errors import error_text


@login_required
@require_http_methods(["GET", "POST"])
# One way: the switch asks for the password again (accounts.reauth), not a link's session.
@reauthentication_required(allow_get=True)
def bot_account_page(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            error = {"code": "invalid_field", "text": _("Tick the box to confirm.")}
        else:
            try:
                bots.bot_account_upgrade(user=request.user)
            except ServiceError as exc:
                error = {"code": exc.code, "text": error_text(exc.code, exc.message)}
            else:
                messages.success(request, _("This account is now a bot account."))
                return HttpResponseRedirect(reverse("bot_account"))
    profile = request.user.profile  # type: ignore[union-attr]
    ctx = {
        "is_bot": profile.bot_account,
        "can_upgrade": not profile.bot_account
        and not Seat.objects.filter(user_id=int(request.user.pk or 0)).exists(),
        "error": error,
        "stream_url": absolute("/api/v1/stream/"),
    }
    return render(request, "games/bot_account.html", ctx, status=400 if error else 200)
