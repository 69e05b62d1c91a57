"""``/health/``: 200 when the database, cache, broker, outbox and deadline sweep are well, 503
naming the check that is not; JSON for monitors, plain text for people."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import health
from games.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clean_cache():
    from django.core.cache import cache

    cache.delete(health.SWEEP_LAST_RUN_KEY)
    yield
    cache.delete(health.SWEEP_LAST_RUN_KEY)


def test_all_well_is_200_with_every_check_named():
    r = Client().get("/health/json/")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["ok"] is True
    assert set(body["checks"]) == {
        "database",
        "cache",
        "broker",
        "outbox",
        "deadline_sweep",
        "replica",
        "mail",
        "journal",
    }
    assert body["checks"]["replica"] == {"ok": True, "configured": False}
    text = Client().get("/health/")
    assert text.status_code == 200
    assert text.content.decode().startswith("ok")
    assert Client().get("/health/", HTTP_ACCEPT="application/json").json()["ok"] is True


def test_an_email_waiting_too_long_fails_the_outbox_check(settings, make_player):
    p = make_player()
    n = Notification.objects.create(recipient=p.user, kind=Notification.Kind.OTHER)
    Notification.objects.filter(pk=n.pk).update(created_at=timezone.now() - timedelta(hours=1))
    settings.HEALTH_OUTBOX_MAX_AGE_SECONDS = 600
    r = Client().get("/health/json/")
    assert r.status_code == 503
    assert r.json()["checks"]["outbox"]["ok"] is False
    assert r.json()["checks"]["outbox"]["oldest_pending_seconds"] >= 3600
    assert r.json()["checks"]["database"]["ok"] is True


def test_a_sweep_that_stopped_running_fails_its_check():
    health.sweep_ran(time.time() - 3600)
    r = Client().get("/health/json/")
    assert r.status_code == 503
    assert r.json()["checks"]["deadline_sweep"]["ok"] is False
    health.sweep_ran()
    assert Client().get("/health/json/").status_code == 200


def test_a_broker_that_is_down_is_a_failing_check_not_a_500(monkeypatch):
    def down():
        raise ConnectionRefusedError("broker down")

    monkeypatch.setitem(health.CHECKS, "broker", down)
    r = Client().get("/health/json/")
    assert r.status_code == 503
    assert r.json()["checks"]["broker"] == {"ok": False, "error": "ConnectionRefusedError"}
    assert "broker: FAILING" in Client().get("/health/").content.decode()


def test_a_journal_this_process_cannot_append_to_is_flagged_not_failing(settings, tmp_path):
    """A host's delivery journal that cannot be opened for appending (a file left owned by
    another user, a folder that is not one) loses every line, and a restore would tell nobody
    what it lost: flagged for the monitor, the host still 200 for the load balancer."""
    from games.restore import journal

    settings.DELIVERY_JOURNAL_DIR = str(tmp_path / "journal")
    r = Client().get("/health/json/")
    assert r.status_code == 200, r.content
    assert r.json()["checks"]["journal"] == {"ok": True, "configured": True}
    assert r.json()["flagged"] == []
    assert journal.journal_path().exists()  # opened as the first line would open it

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    settings.DELIVERY_JOURNAL_DIR = str(blocker / "journal")
    r = Client().get("/health/json/")
    assert r.status_code == 200, r.content
    check = r.json()["checks"]["journal"]
    assert check["flagged"] == ["unwritable"], check
    assert check["ok"] is True
    assert r.json()["flagged"] == ["journal.unwritable"]
    text = Client().get("/health/").content.decode()
    assert text.startswith("ok")
    assert "FLAGGED: journal.unwritable" in text
    assert "journal: ok FLAGGED" in text
