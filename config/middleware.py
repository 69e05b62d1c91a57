"""Infrastructure failures answer 503 with a clear body, never a 500 page.

A lost database connection (a restart, a failover, a network blip) raises ``OperationalError`` or
``InterfaceError`` from wherever the view happened to be. Every write runs in one transaction, so
nothing was half-done: the honest answer is "try again", with a machine-readable code for API
clients (who can retry with the same ``Idempotency-Key``) and a plain page for people.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable
from http import HTTPStatus

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.http.response import HttpResponseBase, HttpResponseRedirectBase
from django.middleware.common import CommonMiddleware as DjangoCommonMiddleware
from django.template import loader
from django.utils.encoding import iri_to_uri
from django.utils.http import escape_leading_slashes

from config.unavailable import database_unavailable
from games.api.errors import error_body
from games.numbers import BadNumber
from games.web.errors import error_text

log = logging.getLogger(__name__)


class ServiceUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, (OperationalError, InterfaceError)):
            return None
        return database_unavailable(request, exc)


class BadNumberMiddleware:
    """A number from outside that ``games.numbers`` refused, let through by a view (a query
    parameter, a form field read before the view's own refusals): 400, nothing changed; JSON
    with its code under /api/, else the plain 400 page with the sentence."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, BadNumber):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse(dict(exc.as_body()), status=400)
        text = error_text(exc.code, exc.message, exc.details)
        return HttpResponse(loader.get_template("400.html").render({"message": text}), status=400)


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


#: The code of an error body written here, by status (games.api.errors lists them all).
_API_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "request_too_large",
    415: "unsupported_media_type",
    429: "throttled",
    503: "service_unavailable",
}


class ApiErrorsAsJsonMiddleware:
    """Every error under ``/api/`` has the API's JSON body with a code, whoever answered it.

    The REST views' errors are written by ``games.api.errors.exception_handler`` and Django's own
    (404, 400, 500) by the handlers there. What is left: the views under /api/ that are not REST
    views (the documentation pages answer a wrong method in HTML, the schema in YAML) and the
    CSRF check, which refuses a session's POST with Django's HTML page before any view runs.
    Those bodies are replaced here, keeping the status and headers (``Allow``, ``Retry-After``).
    The browsable API (development only) keeps its HTML."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or not request.path.startswith("/api/")
            or response.streaming
            or response.get("Content-Type", "").startswith("application/json")
            or getattr(getattr(response, "accepted_renderer", None), "format", "") == "api"
        ):
            return response
        status = response.status_code
        code = _API_CODES.get(status, "server_error" if status >= 500 else "bad_request")
        try:
            message = HTTPStatus(status).phrase + "."
        except ValueError:
            message = "Error."
        body = JsonResponse(error_body(code, message))
        response.content = body.content
        response["Content-Type"] = body["Content-Type"]
        if response.has_header("Content-Length"):  # CommonMiddleware measured the old body
            response["Content-Length"] = str(len(response.content))
        return response


class CommonMiddleware(DjangoCommonMiddleware):
    """Django's, but under ``/api/`` a URL without its trailing slash keeps its method.

    Django answers such a URL with 301 when the slashed one exists, which clients re-send as a GET
    (a POST's body lost, a GET's answer where a write was meant), and with DEBUG it raises
    RuntimeError for POST, PUT, PATCH and DELETE (a 500). Under /api/ the answer is 308 Permanent
    Redirect to the slashed URL (which keeps the method and the body) with the API's JSON body,
    whatever the method and DEBUG; a URL that exists in neither form stays the JSON 404. A page's
    GET keeps Django's 301; a page's form sent without the slash gets the 308 too (browsers send
    the form again to the new address), never the 500."""

    def process_request(self, request: HttpRequest) -> HttpResponsePermanentRedirect | None:
        """No address of the site holds a NUL character (``%00``): such a path is not found,
        before any view would put it in a query (PostgreSQL refuses a NUL in text: a 500)."""
        if "\x00" in request.path:
            raise Http404("No such page.")
        return super().process_request(request)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.status_code == 404 and self.should_redirect_with_slash(request):
            if request.path.startswith("/api/"):
                return _api_slash_redirect(request)
            if request.method not in ("GET", "HEAD"):
                return HttpResponsePermanentRedirectKeepingMethod(_slashed(request))
        return super().process_response(request, response)


class HttpResponsePermanentRedirectKeepingMethod(HttpResponseRedirectBase):
    status_code = 308


def _slashed(request: HttpRequest) -> str:
    """Django's get_full_path_with_slash without its DEBUG RuntimeError: the query string kept,
    a leading "//" escaped (never a scheme-relative address)."""
    return escape_leading_slashes(request.get_full_path(force_append_slash=True))


def _api_slash_redirect(request: HttpRequest) -> HttpResponse:
    location = _slashed(request)
    body = JsonResponse(
        error_body(
            "trailing_slash_missing",
            f"API URLs end with a slash: send the request to {location}.",
            {"location": iri_to_uri(location)},
        )
    )
    return HttpResponsePermanentRedirectKeepingMethod(
        location, content=body.content, content_type=body["Content-Type"]
    )


class _GcClock(threading.local):
    """The CPU time this thread has spent in Python's garbage collector (``gc.callbacks``)."""

    total = 0.0
    started: float | None = None


_gc_clock = _GcClock()


def _time_gc(phase: str, info: dict[str, int]) -> None:
    # A collection runs on the thread whose allocation triggered it: its cost lands in that
    # thread's CPU time, whatever the request was doing.
    if phase == "start":
        _gc_clock.started = time.thread_time()
    elif _gc_clock.started is not None:
        _gc_clock.total += time.thread_time() - _gc_clock.started
        _gc_clock.started = None


if _time_gc not in gc.callbacks:
    gc.callbacks.append(_time_gc)


class ServerTimingMiddleware:
    """``Server-Timing: app;dur=<ms>, cpu;dur=<ms>, gc;dur=<ms>`` on every answer: the time the
    server spent on it, from the first middleware to the last, and the CPU time its thread spent
    meanwhile (a browser shows both in its network panel; the browser walk,
    tests/e2e/test_whole_game_walk_browser.py, holds every page under its budget with them).

    ``app`` is wall time: on a loaded machine it also counts the time the request waited for a
    core (or, in a threaded server, for Python's lock while another thread ran), so it says
    little about the page itself there. ``cpu`` is the request's own work: the thread's CPU time
    (``time.thread_time``), not the process's, which in a threaded server (gunicorn's gthread
    workers, the test's live server) also counts other requests and threads. Work the request
    hands to threads of its own is not in it (none does: the password hasher runs in one lane on
    this thread, accounts/hashers.py). ``gc`` is the part of ``cpu`` spent in Python's garbage
    collector: a full collection walks the whole process's objects (every game cached, every
    thread's), so it is the process's housekeeping that this request happened to trigger, not
    the page's work (the walk holds ``cpu`` less ``gc`` to the budget and reports ``gc``). A
    duration says nothing a visitor could not measure from outside."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start, cpu, in_gc = time.perf_counter(), time.thread_time(), _gc_clock.total
        response = self.get_response(request)
        wall_ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.thread_time() - cpu) * 1000
        gc_ms = (_gc_clock.total - in_gc) * 1000
        response["Server-Timing"] = (
            f"app;dur={wall_ms:.1f}, cpu;dur={cpu_ms:.1f}, gc;dur={gc_ms:.1f}"
        )
        return response
