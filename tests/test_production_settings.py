"""The production configuration is checked, not described: with DEBUG off and an HTTPS site,
``manage.py check --deploy`` finds nothing to warn about, and a page carries the security
headers (HSTS, no sniffing, referrer and permissions policies, secure cookies, a strict
Content-Security-Policy)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION = {
    "DEBUG": "False",
    "SECRET_KEY": "prod-test-" + "k3y" * 20,
    "ALLOWED_HOSTS": "pg.example",
    "SITE_URL": "https://pg.example",
    "CSRF_TRUSTED_ORIGINS": "https://pg.example",
}


def _run(code: str) -> subprocess.CompletedProcess[str]:
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; production never does.
    unset = ("DEBUG", "SITE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(PRODUCTION, PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_check_deploy_has_nothing_to_say():
    out = _run(
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('check', deploy=True, fail_level='WARNING')"
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_a_page_carries_the_security_headers():
    out = _run(
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/health/', secure=True, HTTP_HOST='pg.example'); "
        "print(json.dumps(dict(r.headers))); "
        "r = Client().get('/', HTTP_HOST='pg.example'); print(r.status_code, r.get('Location'))"
    )
    assert out.returncode == 0, out.stderr
    headers_line, redirect_line = out.stdout.strip().splitlines()[-2:]
    headers = json.loads(headers_line)
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "camera=()" in headers["Permissions-Policy"]
    assert redirect_line.startswith("301 https://pg.example/")  # plain HTTP is sent to HTTPS


def test_production_pages_carry_the_strict_content_security_policy():
    out = _run(
        "import django, json; django.setup(); from django.test import Client; "
        # Headers only: without a migrated database a page may be a 500, which carries them too.
        "c = Client(HTTP_HOST='pg.example', raise_request_exception=False); "
        "print(json.dumps([c.get(p, secure=True).get('Content-Security-Policy') "
        "for p in ('/health/', '/accounts/login/')]))"
    )
    assert out.returncode == 0, out.stderr
    health, login = json.loads(out.stdout.strip().splitlines()[-1])
    assert health == login
    policy = {d.split()[0]: d.split()[1:] for d in login.split(";")}
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "unsafe" not in login
