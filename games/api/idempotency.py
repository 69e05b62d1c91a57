"""The ``Idempotency-Key`` header, as HTTP: reading the key, and answering what
``games.services.idempotency.idempotent_run`` (which owns the transaction) says."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.errors import error_body
from games.services.errors import ServiceError
from games.services.idempotency import Answer, idempotent_run
from games.shapes import Body

HEADER = "Idempotency-Key"
MAX_KEY = 255
#: Control characters (C0, DEL, C1). A NUL cannot be stored (PostgreSQL text: it was a 500) and
#: none belongs in a key; gunicorn refuses most in any header, but not every server does.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder, default=str)
    raw = f"{request.method} {request.path}\n{body}".encode()
    return hashlib.sha256(raw).hexdigest()


def _response(answer: Answer) -> Response:
    if answer.reused:
        return Response(
            error_body(
                "idempotency_key_reused",
                "This Idempotency-Key was already used for a different request.",
                {"header": HEADER},
            ),
            status=422,
        )
    response = Response(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def idempotent(request: Request, do: Callable[[], tuple[int, Body]]) -> Response:
    """Run ``do`` (returning (status, body), or raising ServiceError) at most once per key.

    Without the header, ``do`` runs plainly. Service errors are stored too: a retry of a refused
    request gets the same refusal.
    """
    key = request.headers.get(HEADER)
    if not key:
        try:
            status, body = do()
        except ServiceError as exc:
            return Response(exc.as_body(), status=exc.status)
        return Response(body, status=status)
    if len(key) > MAX_KEY:
        return Response(
            error_body("invalid_field", f"{HEADER} is longer than {MAX_KEY}.", {"field": HEADER}),
            status=400,
        )
    if _CONTROLS.search(key):
        return Response(
            error_body(
                "invalid_field", f"{HEADER} cannot contain control characters.", {"field": HEADER}
            ),
            status=400,
        )
    user = request.user
    if not isinstance(user, User):  # the views using this require IsAuthenticated first
        raise NotAuthenticated()
    answer = idempotent_run(user=user, key=key, fingerprint=_fingerprint(request), do=do)
    return _response(answer)
