"""The first-request work done once in gunicorn's master (config.warmup, deploy/gunicorn.conf.py):
it fills the per-process caches a first page view would fill, and touches no database (a
connection opened before the fork would be shared by every worker)."""

from __future__ import annotations

import logging
import runpy
from pathlib import Path

from django.conf import settings

from config import warmup
from games.web import board_svg
from powergrid.maps import available_maps

ROOT = Path(__file__).resolve().parent.parent


def test_warm_up_places_every_maps_names_in_every_language_without_the_database():
    """No ``db`` fixture: pytest-django refuses any query here, so a warm-up that read the
    database would fail this test."""
    board_svg.name_labels.cache_clear()
    took = warmup.warm_up()
    assert set(took) == {"urls", "templates", "translations", "board_labels"}
    assert board_svg.name_labels.cache_info().currsize == len(available_maps()) * len(
        settings.LANGUAGES
    )
    hits = board_svg.name_labels.cache_info().hits
    board_svg.name_labels("germany", "ja")  # what a Japanese player's first page asks
    assert board_svg.name_labels.cache_info().hits == hits + 1


def test_every_project_template_is_compiled_ahead():
    names = warmup.project_templates()
    assert "games/game.html" in names
    assert "emails/turn.txt" in names
    assert all(not n.startswith("/") for n in names)


def test_gunicorn_warms_up_in_the_master_when_ready(monkeypatch, caplog):
    """deploy/gunicorn.conf.py's when_ready hook runs the warm-up and logs what it took."""
    conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    assert conf["preload_app"] is True  # the hook runs in the master only with the app loaded
    monkeypatch.setattr(warmup, "warm_up", lambda: {"urls": 0.5, "board_labels": 1.25})

    class Server:
        log = logging.getLogger("gunicorn.error.test")

    with caplog.at_level(logging.INFO, logger="gunicorn.error.test"):
        conf["when_ready"](Server())
    assert "warmed up: urls 0.50 s, board_labels 1.25 s" in caplog.text
