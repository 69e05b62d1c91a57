from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts.zones import browser_zone, zone_named


class UserLanguageMiddleware:
    """A signed-in user's profile language and timezone win over the browser's on every page; a
    visitor's pages are in the zone their browser names (``accounts.zones.browser_zone``).

    The API is left alone: it speaks UTC timestamps and English messages, which is what a client
    author expects; the user's preferences are available from ``GET /api/v1/me/``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        activated_tz = False
        # The path first: ``user.is_authenticated`` resolves the lazy session user (a session
        # read), which an API request authenticated by token never needs.
        user = None if request.path.startswith("/api/") else getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None)
            if profile is not None and profile.language:
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
            if profile is not None and profile.timezone:
                timezone.activate(zone_named(profile.timezone))  # unknown names read as UTC
                activated_tz = True
        elif user is not None:  # a visitor's page: the browser's zone (static/js/zone.js)
            zone = browser_zone(request)
            if zone is not None:
                timezone.activate(zone)
                activated_tz = True
        try:
            return self.get_response(request)
        finally:
            if activated_tz:
                timezone.deactivate()
