"""Every migration of a release and of compose waits at most 5 s for a lock and is tried again
(deploy/migrate.sh): a migration queued behind a long transaction would otherwise queue every web
query on its table behind it. The script runs here for real, with a stand-in for ``python`` that
records what ``manage.py migrate`` would have been given, and once against PostgreSQL to show the
lock timeout reaches the server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
SCRIPT = DEPLOY / "migrate.sh"

FAKE_PYTHON = """#!/bin/sh
# A stand-in for python: records its arguments and PGOPTIONS, fails the first FAILS calls.
echo "$* | $PGOPTIONS" >> {calls}
n=$(wc -l < {calls})
[ "$n" -gt "${{FAILS:-0}}" ]
"""


def _run(tmp_path: Path, fails: int, tries: int = 5) -> tuple[int, list[str]]:
    calls = tmp_path / "calls"
    fake = tmp_path / "python"
    fake.write_text(FAKE_PYTHON.format(calls=calls))
    fake.chmod(0o755)
    env = dict(os.environ, PYTHON=str(fake), FAILS=str(fails), MIGRATE_TRIES=str(tries))
    env.update(MIGRATE_RETRY_SECONDS="0")
    env.pop("PGOPTIONS", None)
    done = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    return done.returncode, calls.read_text().splitlines() if calls.exists() else []


def test_migrate_runs_with_a_five_second_lock_wait(tmp_path):
    code, calls = _run(tmp_path, fails=0)
    assert code == 0
    assert calls == ["manage.py migrate --noinput |  -c lock_timeout=5s"]


def test_a_migration_that_gave_up_is_tried_again(tmp_path):
    code, calls = _run(tmp_path, fails=2)
    assert code == 0
    assert len(calls) == 3


def test_it_gives_up_after_the_tries_with_an_error(tmp_path):
    code, calls = _run(tmp_path, fails=99, tries=3)
    assert code == 1
    assert len(calls) == 3


def test_compose_and_the_image_migrate_with_the_script():
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert services["migrate"]["command"] == ["sh", "deploy/migrate.sh"]
    assert "deploy/migrate.sh" in (DEPLOY / "Dockerfile").read_text()
    assert "deploy/migrate.sh" in (DEPLOY / "README.md").read_text()


def test_postgresql_receives_the_lock_timeout(tmp_path):
    psycopg = pytest.importorskip("psycopg")
    try:
        psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres connect_timeout=3").close()
    except Exception:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but PostgreSQL does not answer")
        pytest.skip("PostgreSQL does not answer")
    show = tmp_path / "python"
    show.write_text(
        "#!/bin/sh\n"
        f"exec {sys.executable} -c \"import psycopg; c = psycopg.connect('host=127.0.0.1 "
        "user=postgres dbname=postgres'); print(c.execute('SHOW lock_timeout').fetchone()[0])\"\n"
    )
    show.chmod(0o755)
    env = dict(os.environ, PYTHON=str(show))
    env.pop("PGOPTIONS", None)
    done = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "5s"
