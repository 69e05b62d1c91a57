"""Every operation the schema declares without a body refuses one: derived from the schema, so
a new bodiless operation is walked without anyone adding it here (games/api/bodiless.py).

A body with a key, a list, a bare number or text that is no JSON: 400 ``invalid_field``
(``details.allowed`` empty), and nothing changed; no body, or ``{}``, is not refused for being
there (what the operation then answers is its own business)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_hostile_numbers import _schema, snapshot, world  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

BODIES: list[tuple[str, str]] = [
    ('{"days": 3}', "application/json"),
    ("[1]", "application/json"),
    ("7", "application/json"),
    ("not json", "application/json"),
    ("days=3", "application/x-www-form-urlencoded"),
    # JSON values Python reads as false: taken as "no body" before (an outsider's finding).
    ("0", "application/json"),
    ("false", "application/json"),
    ("null", "application/json"),
    ('""', "application/json"),
    ("[]", "application/json"),
]


def _bodiless(w: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(method, url, operationId) of every operation with a body's method and no body."""
    ids = {
        "game_id": w["gid"],
        "message_id": w["mid"],
        "hook_id": w["hook"],
        "request_id": 1,
        "kind": "proxy_bid",
        "slug": "germany",
        "seq": 0,
        "prefix": "x",
        "username": w["actor"].user.get_username(),
        "device_id": 1,
        "tournament_id": 1,
        "league_id": 1,
        "number": 1,
    }
    out = []
    for path, ops in _schema()["paths"].items():
        url = re.sub(r"\{(\w+)\}", lambda m: str(ids[m.group(1)]), path)
        for method, op in ops.items():
            if method in ("post", "put", "patch", "delete") and "requestBody" not in op:
                out.append((method, url, op["operationId"]))
    return out


def test_every_bodiless_operation_refuses_a_body(world):  # noqa: F811
    from accounts.models import Profile

    actor = world["actor"]
    ops = _bodiless(world)
    before = snapshot(), list(Profile.objects.order_by("pk").values_list())
    for method, url, oid in ops:
        for body, ctype in BODIES:
            r = getattr(actor.client, method)(url, body, content_type=ctype)
            where = (oid, body)
            assert r.status_code == 400, (where, r.status_code, r.content[:200])
            error = r.json()["error"]
            assert error["code"] == "invalid_field", (where, error)
            assert error["details"]["allowed"] == [], (where, error)
    assert (snapshot(), list(Profile.objects.order_by("pk").values_list())) == before
    names = {oid for _m, _u, oid in ops}
    for must in ("games_leave", "games_start", "webhooks_test", "me_calendar_renew"):
        assert any(must in n for n in names), (must, sorted(names))
    assert len(ops) >= 12


def test_no_body_or_an_empty_object_is_not_refused_for_being_there(world):  # noqa: F811
    """The calendar's renewal (a bodiless operation with no other condition) with nothing, with
    ``{}``: both answered."""
    actor = world["actor"]
    for body in (None, {}):
        kwargs = {} if body is None else {"data": body, "format": "json"}
        r = actor.client.post("/api/v1/me/calendar/", **kwargs)
        assert r.status_code in (200, 403), r.content
        if r.status_code == 400:
            raise AssertionError(r.content)
