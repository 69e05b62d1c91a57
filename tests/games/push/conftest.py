"""Web Push fixtures: the site's VAPID key (made for the test, as ``manage.py vapid_keys``
would), endpoints on a local push service allowed, and that service."""

from __future__ import annotations

import pytest
from pushservice import start
from py_vapid import Vapid, b64urlencode


@pytest.fixture
def vapid(settings):
    from accounts import push

    key = Vapid()
    key.generate_keys()
    raw = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64urlencode(raw)
    settings.WEBPUSH_ALLOW_ANY_ENDPOINT = True
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:ops@pg.example"
    push.forget()
    yield push.public_key()
    push.forget()


@pytest.fixture
def push_service(vapid):
    svc = start()
    yield svc
    svc.server.shutdown()
