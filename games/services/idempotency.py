"""Requests made at most once per key: a retried request gets the first answer and changes nothing.

``idempotent_run`` owns the transaction: the change (a move, a new game: the service call inside
``do``, whose own ``atomic`` nests as a savepoint) and the record of its answer are committed
together, or neither is. Two concurrent requests with one key: the second's insert of the record
hits the unique constraint, its transaction (its change included) rolls back, and it answers with
the first's stored answer. Side effects of the change (emails, tasks) leave on commit, so a
rolled-back duplicate sends nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction

from games.models import IdempotencyRecord
from games.shapes import Body

from .errors import ServiceError


@dataclass(frozen=True)
class Answer:
    """What a request answers: its HTTP status and body, and whether it was replayed (the key
    was used before) or reused for a different request (``reused``: the caller answers 422)."""

    status: int
    body: Body | None  # None: a stored answer without a body
    replayed: bool = False
    reused: bool = False


def _stored(record: IdempotencyRecord, fingerprint: str) -> Answer:
    if record.fingerprint != fingerprint:
        return Answer(422, None, replayed=True, reused=True)
    return Answer(record.response_status, record.response_body, replayed=True)


def idempotent_run(
    *, user: Any, key: str, fingerprint: str, do: Callable[[], tuple[int, Body]]
) -> Answer:
    """Run ``do`` (returning (status, body), or raising ``ServiceError``) at most once per
    (user, key); a refusal is stored too, so a retry of a refused request is refused the same."""
    existing = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if existing is not None:
        return _stored(existing, fingerprint)
    try:
        with transaction.atomic():
            try:
                status, body = do()
            except ServiceError as exc:
                status, body = exc.status, exc.as_body()
            record = IdempotencyRecord.objects.create(
                user=user,
                key=key,
                fingerprint=fingerprint,
                response_status=status,
                response_body=json.loads(json.dumps(body, cls=DjangoJSONEncoder)),
            )
            # The first answer is the stored one as read back, as every replay will be: the
            # database's JSON type may order the keys its own way (PostgreSQL's jsonb does), and
            # a client comparing a retry's body with the first must find them identical.
            stored = IdempotencyRecord.objects.values_list("response_body", flat=True).get(
                pk=record.pk
            )
    except IntegrityError:
        first = IdempotencyRecord.objects.filter(user=user, key=key).first()
        if first is None:
            raise
        return _stored(first, fingerprint)
    return Answer(status, stored)
