"""The Content-Security-Policy (settings.CONTENT_SECURITY_POLICY, django-csp) in the default
configuration: every page carries it, strict (no inline script or style, our origin only); the
templates and the board's SVG contain nothing it would block; the API documentation pages get
exactly the relaxations they need (games/api/docs.py); /csp-report/ logs what browsers report.
tests/e2e checks the same pages in Chromium, and tests/test_production_settings.py the header
with the production settings."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from django.test import Client

from games.web.board_svg import render_board

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"

pytestmark = pytest.mark.django_db

# What a strict policy refuses in markup: an inline script (one without src that a browser would
# run), a style element or attribute without the response's nonce, an inline event handler, a
# javascript: URL.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*\bnonce=)(?![^>]*application/json)")
STYLE_ELEMENT = re.compile(r"<style(?![^>]*\bnonce=)")
STYLE_ATTR = re.compile(r"""\sstyle\s*=\s*["']""")
HANDLER = re.compile(r"""\son[a-z]+\s*=\s*["']""")
JS_URL = re.compile(r"javascript:", re.IGNORECASE)


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


def _served_templates() -> list[Path]:
    """Every template of a page (emails are mail, not pages; the development mailbox is a page;
    the docs pages relax the policy on purpose and are checked below)."""
    return [
        p
        for p in TEMPLATES.rglob("*.html")
        if not (p.parent.name == "emails" and not p.name.startswith("dev_mailbox"))
        and p.parent.name != "drf_spectacular"
    ]


def _offences(text: str) -> list[str]:
    found = []
    for name, pattern in [
        ("inline script", INLINE_SCRIPT),
        ("style element", STYLE_ELEMENT),
        ("style attribute", STYLE_ATTR),
        ("event handler", HANDLER),
        ("javascript: URL", JS_URL),
    ]:
        found += [f"{name}: {m.group(0).strip()}" for m in pattern.finditer(text)]
    return found


def test_the_markup_checks_find_what_they_look_for():
    bad = (
        "<script>x()</script><style>p{}</style><p style='color:red' onclick=\"x()\">"
        "<a href='javascript:x()'>"
    )
    assert len(_offences(bad)) == 5
    good = (
        '<script src="/static/js/a.js"></script><script type="application/json">{}</script>'
        '<style nonce="{{ request.csp_nonce }}">p{}</style><p class="x" data-on="1">'
    )
    assert _offences(good) == []


def test_no_template_needs_what_the_policy_forbids():
    templates = _served_templates()
    assert len(templates) > 20
    offences = {str(p.relative_to(ROOT)): _offences(p.read_text()) for p in templates}
    assert {k: v for k, v in offences.items() if v} == {}


@pytest.mark.parametrize("slug", ["germany", "usa"])
def test_the_board_svg_needs_no_inline_style(slug):
    svg = render_board(map_slug=slug, areas=None, lang="en")
    assert "<svg" in svg
    assert _offences(svg) == []


def test_a_page_carries_the_strict_policy(started_game, client_for):
    game, users = started_game()
    response = client_for(users[0]).get(f"/games/{game.pk}/")
    assert response.status_code == 200
    policy = _policy(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no nonce: the page inlines nothing
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["report-uri"] == ["/csp-report/"]
    assert "unsafe" not in response["Content-Security-Policy"]
    assert _offences(response.content.decode()) == []


def test_every_kind_of_response_carries_it():
    for path in ("/health/", "/accounts/login/", "/no-such-page/"):
        assert "default-src 'self'" in Client().get(path)["Content-Security-Policy"], path


def test_swagger_ui_inlines_only_with_the_responses_nonce():
    response = Client().get("/api/docs/")
    policy = _policy(response)
    nonces = [v for v in policy["script-src"] if v.startswith("'nonce-")]
    assert len(nonces) == 1
    nonce = nonces[0][len("'nonce-") : -1]
    html = response.content.decode()
    assert f'<script nonce="{nonce}">' in html
    assert f'<style nonce="{nonce}">' in html
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "data:" in policy["img-src"]
    other = _policy(Client().get("/api/docs/"))["script-src"]
    assert nonces[0] not in other  # a new nonce for every response


def test_redoc_alone_may_insert_styles_but_not_scripts():
    response = Client().get("/api/redoc/")
    policy = _policy(response)
    assert policy["style-src"] == ["'self'", "'unsafe-inline'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["worker-src"] == ["blob:"]
    assert "fonts.googleapis.com" not in response.content.decode()


def test_a_violation_report_is_logged(caplog):
    report = {
        "csp-report": {
            "document-uri": "https://pg.example/games/1/",
            "violated-directive": "style-src-attr",
            "effective-directive": "style-src-attr",
            "blocked-uri": "inline",
            "source-file": "https://pg.example/static/js/game.js",
            "line-number": 42,
        }
    }
    with caplog.at_level(logging.WARNING, logger="csp"):
        response = Client().post(
            "/csp-report/", json.dumps(report), content_type="application/csp-report"
        )
    assert response.status_code == 204
    assert "style-src-attr" in caplog.text
    assert "https://pg.example/games/1/" in caplog.text


def test_a_report_endpoint_refuses_what_is_not_a_report():
    assert Client().get("/csp-report/").status_code == 405
    bad = Client().post("/csp-report/", "not json", content_type="application/csp-report")
    assert bad.status_code == 400
    empty = Client().post("/csp-report/", "{}", content_type="application/json")
    assert empty.status_code == 400
