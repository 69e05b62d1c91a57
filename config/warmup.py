"""Work every web process would otherwise do on its first requests, done before its first request.

``deploy/gunicorn.conf.py`` calls ``warm_up`` in each worker after it loaded the application and
before it takes a request (``post_worker_init``; the master never loads the application, so a
reload imports new code), so each worker, and each worker that replaces a recycled one
(``max_requests``), starts with:

* every view module imported (Django imports the URL configuration on the first request:
  ~0.6 s here);
* every project template compiled (the cached loader keeps them per process);
* both languages' translation catalogues loaded;
* the board's city-name placement computed for every map in both languages (about 0.2 s per map
  and language: ``games.web.board_layout.place_labels``).

Without it a game page's first view in a fresh worker took 0.7-1.8 s instead of ~40 ms
(``bench/page_bench.py`` prints the first view; ``--warm`` calls this first).

Nothing here touches the database or the cache, and connections are closed at the end anyway.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

from games.web import board_svg
from powergrid.maps import available_maps

#: Template files compiled ahead (the project's own; apps' templates load on first use).
TEMPLATE_SUFFIXES = (".html", ".txt")


def project_templates() -> list[str]:
    """The names of the project's templates (``templates/``), as ``get_template`` takes them."""
    names: list[str] = []
    dirs: Any = settings.TEMPLATES[0]["DIRS"]
    for folder in dirs:
        root = Path(folder)
        names += sorted(
            str(p.relative_to(root))
            for p in root.rglob("*")
            if p.is_file() and p.suffix in TEMPLATE_SUFFIXES
        )
    return names


def warm_up() -> dict[str, float]:
    """Do the first-request work now; returns the seconds each part took (for the log)."""
    took: dict[str, float] = {}
    t = time.perf_counter()
    get_resolver().url_patterns  # noqa: B018 - the import of every view module is the point
    took["urls"] = time.perf_counter() - t

    t = time.perf_counter()
    for name in project_templates():
        get_template(name)
    took["templates"] = time.perf_counter() - t

    t = time.perf_counter()
    languages = [code for code, _name in settings.LANGUAGES]
    for lang in languages:
        with translation.override(lang):
            translation.gettext("Power Grid")
    took["translations"] = time.perf_counter() - t

    t = time.perf_counter()
    for slug in available_maps():
        for lang in languages:
            board_svg.name_labels(slug, lang)
    took["board_labels"] = time.perf_counter() - t

    connections.close_all()
    return took
