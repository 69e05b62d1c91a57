"""The API's documentation pages load everything from this server (no CDN): they work offline,
in production and under a Content-Security-Policy."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_load_scripts_and_styles_from_this_server(path):
    html = Client().get(path).content.decode()
    urls = re.findall(r'(?:src|href)=["\']([^"\']+)["\']', html)
    assets = [u for u in urls if u.endswith((".js", ".css"))]
    assert assets, html[:500]
    for url in assets:
        assert url.startswith("/static/"), url
        assert finders.find(url.removeprefix("/static/")) is not None, url
    assert "cdn.jsdelivr.net" not in html
    assert "unpkg.com" not in html
