"""Adding a device on a server without a VAPID key (Web Push off): schemathesis found that an
empty ``POST /api/v1/me/push/`` answered 503 ``push_unavailable``, a 5xx for a client's request,
which a client would retry for ever. The subscription is checked first (400, whatever the
server's set-up), and a good one is refused with 409 ``push_unavailable``: no retry makes it
work, and ``GET /api/v1/push/key/`` already says it is off (an empty key)."""

from __future__ import annotations

import pytest
from pushservice import Browser

pytestmark = pytest.mark.django_db


@pytest.fixture
def push_off(settings):
    from accounts import push

    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    settings.WEBPUSH_VAPID_KEY_FILE = ""
    push.forget()
    yield
    push.forget()


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({}, "invalid_subscription", "endpoint"),
        ({"endpoint": "http://example.com/x", "keys": {}}, "invalid_subscription", "endpoint"),
        (
            {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {"p256dh": "x"}},
            "invalid_subscription",
            "keys.p256dh",
        ),
        ({"expirationTime": "soon"}, "invalid_field", "expirationTime"),
        ({"expirationTime": 10**16}, "invalid_field", "expirationTime"),
        ({"zz": 1}, "invalid_field", "zz"),
    ],
)
def test_a_bad_subscription_is_a_400_without_a_vapid_key(make_player, push_off, body, code, field):
    from accounts.models import PushSubscription

    r = make_player().post("/api/v1/me/push/", body)
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert (error["code"], error["details"]["field"]) == (code, field), error
    assert not PushSubscription.objects.exists()


def test_a_good_subscription_without_a_vapid_key_is_a_409(make_player, push_off):
    from accounts.models import PushSubscription

    player = make_player()
    assert player.get("/api/v1/push/key/").json() == {"public_key": ""}
    body = {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": Browser().keys()}
    r = player.post("/api/v1/me/push/", body)
    assert r.status_code == 409, r.content
    assert r.json()["error"]["code"] == "push_unavailable"
    assert not PushSubscription.objects.exists()


def test_the_same_subscription_is_taken_with_a_vapid_key(make_player, vapid):
    browser = Browser()
    body = {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": browser.keys()}
    r = make_player().post("/api/v1/me/push/", {**body, "expirationTime": 1_700_000_000_000})
    assert r.status_code == 201, r.content


def test_a_browser_added_by_another_account_moves_to_it(make_player, vapid):
    """One endpoint is one browser profile (a shared computer): the last account to add it
    gets its notices; the first no longer lists it, and is not told by it any more."""
    from accounts.models import PushSubscription

    body = {"endpoint": "https://fcm.googleapis.com/fcm/send/shared", "keys": Browser().keys()}
    first, second = make_player(), make_player()
    assert first.post("/api/v1/me/push/", body).status_code == 201
    assert len(first.get("/api/v1/me/push/").json()) == 1
    assert second.post("/api/v1/me/push/", body).status_code in (200, 201)
    row = PushSubscription.objects.get(endpoint=body["endpoint"])
    assert row.user_id == second.user.pk
    assert first.get("/api/v1/me/push/").json() == []
    assert len(second.get("/api/v1/me/push/").json()) == 1
