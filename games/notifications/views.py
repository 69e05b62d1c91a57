"""The pages behind the links in emails: the signed game link and the notification settings link."""

from __future__ import annotations

from django.contrib.auth import login
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import Profile

from . import links

MODES = dict(Profile.NotificationMode.choices)


@require_http_methods(["GET", "POST"])
def login_link(request: HttpRequest, token: str) -> HttpResponse:
    """A signed game link from an email (see ``links``). GET: the recipient, logged in, goes to
    the game; anyone else gets a page with one button. POST (that button): log the recipient in,
    once, then open the game."""
    to_log_in = request.method == "POST"
    try:
        user, game_id = links.login_token_check(token)
        if request.user.is_authenticated and request.user.pk == user.pk:
            return HttpResponseRedirect(links.game_path(game_id))
        if to_log_in:  # spent here, in one step with the check: a second press is refused
            user, game_id = links.login_token_use(token)
    except signing.SignatureExpired:
        return render(request, "emails/link_invalid.html", {"expired": True}, status=400)
    except signing.BadSignature:
        return render(request, "emails/link_invalid.html", {"expired": False}, status=400)
    if not to_log_in:
        return render(
            request,
            "emails/link_login.html",
            {
                "game_id": game_id,
                "username": user.get_username(),
                "other": request.user.get_username() if request.user.is_authenticated else None,
                "can_log_in": links.login_token_valid_for_login(token),
            },
        )
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return HttpResponseRedirect(links.game_path(game_id))


@csrf_exempt  # reached from mail clients and providers (RFC 8058 one-click POST), no session
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a confirmation page with the choices. POST: change the mode (no login needed).

    A POST without ``mode`` (the RFC 8058 one-click ``List-Unsubscribe=One-Click`` body) turns
    emails off.
    """
    try:
        user = links.settings_token_check(token)
    except signing.SignatureExpired:
        return render(
            request, "emails/link_invalid.html", {"expired": True, "settings": True}, status=400
        )
    except signing.BadSignature:
        return render(
            request, "emails/link_invalid.html", {"expired": False, "settings": True}, status=400
        )
    profile, _ = Profile.objects.get_or_create(user=user)
    allowed = profile.notification_modes()  # a bot account's only mode is "none"
    changed = False
    if request.method == "POST":
        mode = request.POST.get("mode") or Profile.NotificationMode.NONE
        if mode not in allowed:
            return HttpResponse("Unknown mode", status=400, content_type="text/plain")
        profile.notification_mode = mode
        profile.save(update_fields=["notification_mode"])
        changed = True
    with translation.override(profile.language or None):
        return render(
            request,
            "emails/settings_page.html",
            {
                "profile": profile,
                "modes": [(k, v) for k, v in MODES.items() if k in allowed],
                "current": profile.notification_mode,
                "current_label": MODES.get(profile.notification_mode, profile.notification_mode),
                "changed": changed,
                "login_url": reverse("account_login")
                + "?"
                + urlencode({"next": reverse("profile")}),
            },
        )
