"""``GET /api/v1/me/`` says whether our emails reach the caller (``email_undeliverable``), as
the banner does: for each reason the address can be marked with, only while it is the account's
current address, and no longer once it is confirmed again. The answers are validated against the
declared schema (``ValidatingAPIClient``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _mark(user, reason):
    from django.utils import timezone

    from accounts import deliverability

    at = timezone.now()
    deliverability.address_mark_undeliverable(user=user, address=user.email, reason=reason, at=at)
    return at


def test_a_fine_address_is_null(make_player):
    p = make_player()
    r = p.get("/api/v1/me/")
    assert r.status_code == 200
    assert r.json()["email_undeliverable"] is None


@pytest.mark.parametrize("reason", ["hard_bounce", "soft_bounces", "rejected", "complaint"])
def test_each_reason_is_said_with_its_date(make_player, reason):
    p = make_player()
    at = _mark(p.user, reason)
    body = p.get("/api/v1/me/").json()["email_undeliverable"]
    assert body["reason"] == reason
    assert body["since"].replace("Z", "+00:00") == at.isoformat()
    # PATCH answers the same shape.
    assert (
        p.client.patch("/api/v1/me/", {"display_name": "New"}, format="json").json()[
            "email_undeliverable"
        ]
        == body
    )


def test_another_address_now_or_a_confirmation_clears_it(make_player):
    from accounts import deliverability

    p = make_player()
    _mark(p.user, "hard_bounce")
    p.user.email = "changed@example.org"
    p.user.save()
    assert p.get("/api/v1/me/").json()["email_undeliverable"] is None
    q = make_player()
    _mark(q.user, "complaint")
    deliverability.address_confirmed(user=q.user, address=q.user.email)
    assert q.get("/api/v1/me/").json()["email_undeliverable"] is None


def test_the_schema_declares_it():
    from api_schema import published_schema

    me = published_schema()["components"]["schemas"]["Me"]
    assert "email_undeliverable" in me["required"]
    field = me["properties"]["email_undeliverable"]
    assert {"type": "null"} in field["oneOf"]
    assert field["oneOf"][0]["$ref"].endswith("/EmailUndeliverable")
