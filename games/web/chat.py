"""The chat's forms on the game page (no JavaScript): post, edit one's message, report, mute.
Thin: ``games.chat.services``; every text is shown escaped by the template."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import numbers
from games.chat import services
from games.services.errors import ServiceError

from .common import game_or_404, login_redirect
from .errors import error_text


@require_POST
def game_chat(request: HttpRequest, game_id: int) -> HttpResponse:
    game_or_404(request, game_id)
    if not request.user.is_authenticated:
        return login_redirect(request)
    op = request.POST.get("op", "post")
    # games.numbers: a message id that is not one is a 400 (config.middleware), nothing done.
    mid = numbers.from_query(request.POST, "id", low=0, high=numbers.ID_MAX) or 0
    try:
        if op == "edit":
            services.chat_edit(
                game_id=game_id, message_id=mid, user=request.user, text=request.POST.get("text")
            )
        elif op == "report":
            services.chat_report(game_id=game_id, message_id=mid, user=request.user)
            messages.success(request, _("Thank you: the moderators will look at it."))
        elif op in ("mute", "unmute"):
            services.chat_mute(user=request.user, muted_id=mid, on=op == "mute")
        else:
            services.chat_post(game_id=game_id, user=request.user, text=request.POST.get("text"))
    except ServiceError as exc:
        messages.error(request, error_text(exc.code, exc.message))
    return HttpResponseRedirect(reverse("game", args=[game_id]) + "#chat")
