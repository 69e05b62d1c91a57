"""The installable site: the web app manifest and the service worker, each at the site's root.

The service worker is served from ``/sw.js`` (not from ``/static/``) so that its scope may be the
whole site, ``Service-Worker-Allowed: /`` said anyway; as JavaScript, never cached long (a new
version must reach the browsers: the browser checks it on each navigation), under the site's CSP
(its code is a file of ours: ``script-src 'self'`` admits it, and it fetches nothing). It shows
the turn notices of ``games.push`` and opens the game on a tap. The manifest names the site, its
icons and its start page in the reader's language."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

WORKER_FILE = "js/sw.js"


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": _("Power Grid"),
        "short_name": _("Power Grid"),
        "description": _("Power Grid by email and on the web: your turns, when they come."),
        "lang": get_language() or "en",
        "start_url": "/",
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f4e79",
        "icons": [
            {
                "src": staticfiles_storage.url(f"img/icon-{n}.png"),
                "sizes": f"{n}x{n}",
                "type": "image/png",
                "purpose": "any",
            }
            for n in (192, 512)
        ]
        + [
            {
                "src": staticfiles_storage.url("img/favicon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
            }
        ],
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "public, max-age=3600"
    response["Vary"] = "Accept-Language, Cookie"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    path = finders.find(WORKER_FILE)
    if not path:  # collected only (production): read it from the static root
        path = staticfiles_storage.path(WORKER_FILE)
    with open(str(path), "rb") as f:
        code = f.read()
    response = HttpResponse(code, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
