"""scripts/prod_smoke, the production smoke test, as part of the suite: the deployment's own
commands (deploy/compose.yaml = deploy/systemd/) with DEBUG off, gunicorn, a Celery worker that is
SIGKILLed half-way through a whole 3-player game, beat, PostgreSQL, Redis and an SMTP sink. The
script checks and prints; this test runs it and fails with its output when it fails. Locally it
skips without PostgreSQL or redis-server; under CI=true it fails."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import psycopg
import pytest
from livehelpers import run_script, unavailable

pytestmark = [pytest.mark.integration]

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "prod_smoke"


def _postgres_answers() -> bool:
    try:
        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=3"
        ):
            return True
    except psycopg.Error:
        return False


def test_production_smoke():
    if not shutil.which("redis-server"):
        unavailable("redis-server")
    if not _postgres_answers():
        unavailable("PostgreSQL on 127.0.0.1:5432")
    out = run_script([sys.executable, str(SCRIPT)], timeout=400)
    print(out.stdout)  # the figures, shown with -s or -rA
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-3000:]
    assert out.stdout.rstrip().endswith("prod_smoke: ok")
    assert "moves: " in out.stdout
