"""The first-request work done once in each gunicorn worker before its first request (config.warmup,
deploy/gunicorn.conf.py's post_worker_init):
it fills the per-process caches a first page view would fill, and touches no database (a
connection opened before the fork would be shared by every worker)."""

from __future__ import annotations

import logging
import os
import runpy
from pathlib import Path
from unittest import mock

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


class _Worker:
    log = logging.getLogger("gunicorn.error.test")


def test_gunicorn_warms_up_each_worker_before_it_serves(monkeypatch, caplog):
    """deploy/gunicorn.conf.py's post_worker_init hook runs the warm-up and logs what it took."""
    with mock.patch.dict(os.environ):  # what it sets in the environment is put back
        conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    # The master never loads the application, so a reload (HUP) imports the new code.
    assert conf["preload_app"] is False
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings")
    monkeypatch.setattr(warmup, "warm_up", lambda: {"urls": 0.5, "board_labels": 1.25})
    with caplog.at_level(logging.INFO, logger="gunicorn.error.test"):
        conf["post_worker_init"](_Worker())
    assert "warmed up: urls 0.50 s, board_labels 1.25 s" in caplog.text


def test_a_failed_warm_up_leaves_the_worker_serving(monkeypatch, caplog):
    with mock.patch.dict(os.environ):  # what it sets in the environment is put back
        conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings")

    def broken() -> dict[str, float]:
        raise RuntimeError("no")

    monkeypatch.setattr(warmup, "warm_up", broken)
    with caplog.at_level(logging.INFO, logger="gunicorn.error.test"):
        conf["post_worker_init"](_Worker())
    assert "warm-up failed" in caplog.text
