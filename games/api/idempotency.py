"""The ``Idempotency-Key`` header: a retried request gets the first response and changes nothing.

The record is written in the same transaction as the change it describes, so either both exist or
neither does. Two concurrent requests with one key: the second's insert hits the unique constraint,
its transaction (move included) rolls back, and it answers with the first's stored response.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.errors import error_body
from games.models import IdempotencyRecord
from games.services.errors import ServiceError

HEADER = "Idempotency-Key"
MAX_KEY = 255


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder, default=str)
    raw = f"{request.method} {request.path}\n{body}".encode()
    return hashlib.sha256(raw).hexdigest()


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        return Response(
            error_body(
                "idempotency_key_reused",
                "This Idempotency-Key was already used for a different request.",
                {"header": HEADER},
            ),
            status=422,
        )
    response = Response(record.response_body, status=record.response_status)
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(request: Request, do: Callable[[], tuple[int, Any]]) -> Response:
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
    user = request.user
    if not isinstance(user, User):  # the views using this require IsAuthenticated first
        raise NotAuthenticated()
    fingerprint = _fingerprint(request)
    existing = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if existing is not None:
        return _replay(existing, fingerprint)
    try:
        with transaction.atomic():
            try:
                status, body = do()
            except ServiceError as exc:
                status, body = exc.status, exc.as_body()
            # Stored as JSON text round-tripped, so the replay is byte-for-byte the same shape.
            stored = json.loads(json.dumps(body, cls=DjangoJSONEncoder))
            IdempotencyRecord.objects.create(
                user=user,
                key=key,
                fingerprint=fingerprint,
                response_status=status,
                response_body=stored,
            )
    except IntegrityError:
        record = IdempotencyRecord.objects.filter(user=user, key=key).first()
        if record is None:
            raise
        return _replay(record, fingerprint)
    return Response(stored, status=status)
