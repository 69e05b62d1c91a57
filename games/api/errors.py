"""Every API error has the body ``{"error": {"code", "message", "details"}}``, DRF's own too."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

import powergrid
from games.services.errors import ServiceError

# DRF exception class -> our code
_CODES: list[tuple[type[Exception], str]] = [
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.ParseError, "parse_error"),
    (exceptions.ValidationError, "invalid_field"),
]

ERROR_CODES: dict[str, str] = {
    "not_authenticated": "401: no credentials were sent.",
    "authentication_failed": "401: wrong username/password or an invalid token.",
    "permission_denied": "403: not allowed.",
    "not_a_player": "403: the caller holds no seat in this game.",
    "not_creator": "403: only the creator may start the game.",
    "not_found": "404: unknown game, map or URL.",
    "method_not_allowed": "405.",
    "not_acceptable": "406: the Accept header asks for something other than JSON.",
    "unsupported_media_type": "415: send application/json.",
    "parse_error": "400: the body is not valid JSON.",
    "invalid_field": "400: a field is missing or has the wrong type or value (details.field).",
    "unknown_map": "400: no map with that slug.",
    "idempotency_key_reused": "422: the Idempotency-Key was used before for a different request.",
    "stale_state": "409: expected_seq is behind the game's seq; fetch the state and retry.",
    "game_not_started": "409: the game is still open.",
    "game_already_started": "409: the game has started (join, leave, start refused).",
    "game_full": "409: all seats are taken.",
    "already_joined": "409: the caller already holds a seat.",
    "not_enough_players": "409: a game needs at least two players to start.",
    "throttled": "429: too many requests; details.retry_after gives the seconds to wait.",
    "service_unavailable": "503: the database is briefly unavailable; nothing was changed. Retry "
    "after Retry-After seconds (with the same Idempotency-Key).",
    "server_error": "500: a bug; reported to the operators.",
}

# The engine's codes (400), from shared/API.md: the engine owns the list.
ENGINE_CODES = sorted(powergrid.CODES)


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        inner = _message(value)
        return inner if key == "non_field_errors" else f"{key}: {inner}"
    return str(detail)


def _first_field(detail: Any, prefix: str = "") -> str | None:
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        path = f"{prefix}.{key}" if prefix else str(key)
        return _first_field(value, path) or path
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response(exc.as_body(), status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _CODES if isinstance(exc, cls)), "error")
    details: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        details = {"fields": exc.detail if isinstance(exc.detail, dict) else {"": exc.detail}}
        field = _first_field(exc.detail)
        if field:
            details["field"] = field
        message = _message(exc.detail)
    elif isinstance(exc, exceptions.Throttled):
        retry_after = getattr(exc, "wait", None)  # set by __init__; the stubs omit the attribute
        details = {"retry_after": retry_after}
        wait = int(retry_after) if retry_after is not None else None
        message = (
            f"Too many requests: try again in {wait} seconds."
            if wait is not None
            else "Too many requests."
        )
    else:
        message = _message(getattr(exc, "detail", str(exc)))
    response.data = error_body(code, message, details)
    return response


def _wants_page(request: Any) -> bool:
    """API clients get the JSON error body; people browsing the site get a page."""
    return not request.path.startswith("/api/")


def handler404(request: Any, exception: Exception | None = None) -> HttpResponse:
    if _wants_page(request):
        try:
            return render(request, "404.html", status=status.HTTP_404_NOT_FOUND)
        except Exception:  # a broken page must not turn a 404 into a 500
            pass
    return JsonResponse(error_body("not_found", "No such URL."), status=status.HTTP_404_NOT_FOUND)


def handler500(request: Any) -> HttpResponse:
    if _wants_page(request):
        # Rendered without context processors: the failure may be in the database or a template.
        return HttpResponse(
            loader.get_template("500.html").render({}),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    return JsonResponse(
        error_body("server_error", "Something went wrong on the server."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
