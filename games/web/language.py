"""The language switch: the reader's choice, kept in a cookie and in their profile (as chosen:
``Profile.language_chosen``). A visitor's choice made before logging in is carried into the
profile at log-in unless the player chose another one themselves
(``accounts.profiles.language_at_login``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.profiles import language_choose


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    lang = request.POST.get("language", "")
    nxt = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        nxt = "/"
    response = HttpResponseRedirect(nxt)
    if lang in dict(settings.LANGUAGES):
        if request.user.is_authenticated:
            # The player's own choice: each log-in follows it from now on.
            language_choose(user=request.user, language=lang)
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, lang, max_age=365 * 24 * 3600)
    return response
