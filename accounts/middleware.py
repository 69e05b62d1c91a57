from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts import deliverability
from accounts.zones import request_zone


class UserLanguageMiddleware:
    """A signed-in user's profile language and timezone win over the browser's on every page; a
    visitor's pages are in the zone their browser names (``accounts.zones.browser_zone``).

    The API is left alone: it speaks UTC timestamps and English messages, which is what a client
    author expects; the user's preferences are available from ``GET /api/v1/me/``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The path first: ``user.is_authenticated`` resolves the lazy session user (a session
        # read), which an API request authenticated by token never needs.
        if request.path.startswith("/api/"):
            return self.get_response(request)
        user = getattr(request, "user", None)
        profile = getattr(user, "profile", None) if user and user.is_authenticated else None
        if profile is not None and profile.language:
            translation.activate(profile.language)
            request.LANGUAGE_CODE = profile.language
        timezone.activate(request_zone(request))  # the profile's, else the browser's, else UTC
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class LastSeenMiddleware:
    """A signed-in player's page view is when we last saw them on the site
    (``Profile.last_seen_at``, written at most every ten minutes by
    ``accounts.deliverability.seen``): a player whose emails bounce but who comes to the site
    knows about their games, and their deadlines go back to the game's own.

    Pages only: the API (tokens) and the health check are left alone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path
        if not path.startswith(("/api/", "/health/", "/static/")):
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                deliverability.seen(user)
        return self.get_response(request)
