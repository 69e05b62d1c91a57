"""The answer to a request that lost the database: 503 with Retry-After, nothing changed.

Used by ``config.middleware.ServiceUnavailableMiddleware`` (a view's loss) and by
``games.api.errors.handler500`` (a loss anywhere else in the request: a middleware reading the
session's user or the profile). Imports nothing of the project's, so both can use it.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


def database_lost(exc: BaseException | None) -> BaseException | None:
    """The database error behind ``exc`` (itself, or one it was raised while handling), if any."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, (OperationalError, InterfaceError)):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def database_unavailable(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """503 with Retry-After, "nothing was changed": a JSON error under /api/, the 503 page
    elsewhere. From a view (``process_exception``) or from anywhere else in the request, a
    middleware reading the session's user included (``games.api.errors.handler500``)."""
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
