"""Every page names its icon, and /favicon.ico (asked for by browsers anyway) leads to it."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_pages_name_the_icon_and_favicon_ico_leads_to_it():
    c = Client()
    html = c.get("/").content.decode()
    assert 'rel="icon"' in html
    r = c.get("/favicon.ico")
    assert r.status_code == 301
    assert r["Location"].endswith(".svg")
    assert finders.find("img/favicon.svg") is not None
