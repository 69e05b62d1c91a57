"""Infrastructure failures answer 503 with a clear body, never a 500 page.

A lost database connection (a restart, a failover, a network blip) raises ``OperationalError`` or
``InterfaceError`` from wherever the view happened to be. Every write runs in one transaction, so
nothing was half-done: the honest answer is "try again", with a machine-readable code for API
clients (who can retry with the same ``Idempotency-Key``) and a plain page for people.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class ServiceUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, (OperationalError, InterfaceError)):
            return None
        log.warning("database unavailable during %s %s: %s", request.method, request.path, exc)
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse(
                {
                    "error": {
                        "code": "service_unavailable",
                        "message": (
                            "The database is unavailable right now; nothing was changed. "
                            "Retry shortly (with the same Idempotency-Key, if you sent one)."
                        ),
                        "details": {"retry_after": RETRY_AFTER_SECONDS},
                    }
                },
                status=503,
            )
        else:
            try:
                response = render(
                    request,
                    "503.html",
                    {"message": _("The site is briefly unavailable; nothing was changed.")},
                    status=503,
                )
            except Exception:  # the page itself must never turn this into a 500
                response = HttpResponse(
                    "The site is briefly unavailable; nothing was changed. Please retry.",
                    content_type="text/plain; charset=utf-8",
                    status=503,
                )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


class PermissionsPolicyMiddleware:
    """Adds ``Permissions-Policy`` (``settings.PERMISSIONS_POLICY``) to every response: the pages
    use no camera, microphone, location or payment, so no script may ask for them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = settings.PERMISSIONS_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", self.policy)
        return response
