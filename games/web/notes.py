"""The note card's form (``games.notes``): plain POST, no JavaScript needed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import notes
from games.services.errors import ServiceError

from .takeback import _back, _refused, _visible_or_404


@require_POST
def game_note(request: HttpRequest, game_id: int) -> HttpResponse:
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        notes.note_set(game_id=game_id, user=request.user, text=request.POST.get("note", ""))
        messages.success(request, _("Your note was saved."))
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id, "#note")
