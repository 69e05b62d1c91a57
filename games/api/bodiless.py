"""Operations the schema declares without a body (``@extend_schema(request=None)``) refuse one.

Why here, once: each bodiless view used to call ``no_body(request.data)`` itself, so a new
bodiless view that forgot the call took any body and dropped it silently (a client sending
``{"days": 3}`` to a call that takes nothing would think it had been read). The declaration the
schema is generated from is the one source: this middleware reads it from the view's handler
(drf-spectacular keeps it on the handler as a schema class) and, when it says no request body,
refuses a non-empty one with the same 400 ``invalid_field`` (``details.allowed`` empty) as
``games.api.serializers.refuse_undeclared``, before the view runs, so nothing is done. No body,
or an empty JSON object, is taken (clients that always send ``{}`` keep working).

A body is refused before authentication (the middleware runs before DRF's): it is refused for
anyone alike, and what it tells (that the operation takes no body) is in the public schema.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from rest_framework.views import APIView

from games.api.serializers import refuse_undeclared
from games.services.errors import ServiceError

#: Methods whose body a view may read; a GET's or a HEAD's body is ignored as HTTP says.
_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


#: (view class, method) -> whether it is declared without a body (declarations do not change).
_SEEN: dict[tuple[type, str], bool] = {}


def declares_no_body(view_class: type[APIView], method: str) -> bool:
    """Whether the handler of ``method`` on ``view_class`` is declared with ``request=None``
    (and is in the schema): what the published schema says of it."""
    key = (view_class, method)
    if key not in _SEEN:
        _SEEN[key] = _read_declaration(view_class, method)
    return _SEEN[key]


def _read_declaration(view_class: Any, method: str) -> bool:
    handler = getattr(view_class, method.lower(), None)
    schema_class = getattr(handler, "kwargs", {}).get("schema")
    if schema_class is None:  # not annotated: the schema's own guess, not a declaration
        return False
    view = view_class()
    view.request = None  # no request: the declaration only
    view.args, view.kwargs = (), {}
    schema = schema_class()
    schema.view = view
    schema.method = method.upper()
    schema.path = ""
    if schema.is_excluded():
        return False
    return schema.get_request_serializer() is None


_NOT_JSON = ServiceError(
    "This operation takes no body.",
    code="invalid_field",
    details={"field": "", "expected": "nothing", "allowed": []},
)


_ABSENT = object()


def _body(request: HttpRequest) -> object:
    """The body as JSON (``_ABSENT`` when there is none: no bytes, or a form with no field);
    raises ``_NOT_JSON`` for any other body that is not JSON."""
    raw = request.body
    if not raw.strip():
        return _ABSENT
    ctype = request.content_type or ""
    if ctype.startswith("multipart/"):  # a form client's empty form has no part at all
        if b"content-disposition" not in raw.lower():
            return _ABSENT
        raise _NOT_JSON
    if ctype == "application/x-www-form-urlencoded":
        if not QueryDict(raw):
            return _ABSENT
        raise _NOT_JSON
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise _NOT_JSON from None


class BodilessMiddleware:
    """Refuses a body sent to an operation declared without one (see the module's doc)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        view_class = getattr(view_func, "cls", None)
        method = (request.method or "").upper()
        if method not in _WITH_BODY or not isinstance(view_class, type):
            return None
        if not issubclass(view_class, APIView) or not declares_no_body(view_class, method):
            return None
        try:
            data = _body(request)
            # No body, or an empty object, is taking nothing; anything else is refused, the
            # JSON values Python reads as false (0, false, null, "", []) too.
            if data is not _ABSENT:
                if not isinstance(data, dict):
                    raise _NOT_JSON
                if data:
                    refuse_undeclared({}, data)
        except ServiceError as exc:
            return JsonResponse(exc.as_body(), status=exc.status)
        return None  # pragma: no cover (every non-empty body has a key or is no object)
