"""What deploy/env.example and the README's variable table say agrees with the code: the file
every unit reads (/etc/powergrid/env) never sets the web-only database limits (the workers, beat
and migrate would be cut off too), and the documented defaults are the settings' own."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV_EXAMPLE = ROOT / "deploy" / "env.example"
WEB_ONLY = ("DATABASE_STATEMENT_TIMEOUT_MS", "DATABASE_LOCK_TIMEOUT_MS")


def _set_keys() -> set[str]:
    return {
        line.split("=", 1)[0].strip()
        for line in ENV_EXAMPLE.read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#") and "=" in line
    }


def test_the_shared_environment_file_leaves_the_web_only_limits_unset():
    keys = _set_keys()
    assert not keys & set(WEB_ONLY)
    assert "GUNICORN_TIMEOUT" in keys
    text = ENV_EXAMPLE.read_text()
    assert all(name in text for name in WEB_ONLY)  # explained, commented out


def test_no_systemd_unit_but_the_web_sets_the_limits():
    for unit in (ROOT / "deploy" / "systemd").glob("*.service"):
        if unit.name != "powergrid-web.service":
            assert not any(name in unit.read_text() for name in WEB_ONLY), unit.name


def _readme_default(variable: str) -> str:
    row = re.search(rf"^\| `{variable}`[^|]*\| `([^`]*)`", (ROOT / "README.md").read_text(), re.M)
    assert row is not None, variable
    return row.group(1)


def test_the_readme_table_gives_the_settings_defaults():
    code = f"WEB_ONLY = {WEB_ONLY!r};" + (
        "import os; [os.environ.pop(k, None) for k in ('CONN_MAX_AGE', 'DATABASE_URL', *WEB_ONLY)];"
        "os.environ['DATABASE_URL'] = 'postgres://u@h/d';"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings';"
        "from django.conf import settings;"
        "print(settings.DATABASES['default']['CONN_MAX_AGE'], settings.DATABASE_LOCK_TIMEOUT_MS)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    conn_max_age, lock_ms = out.stdout.split()
    assert _readme_default("CONN_MAX_AGE") == conn_max_age
    assert _readme_default("GUNICORN_TIMEOUT") == "30"
    assert _readme_default("DATABASE_STATEMENT_TIMEOUT_MS") == lock_ms == "0"


def test_beats_schedule_is_in_a_directory_its_unit_makes():
    unit = (ROOT / "deploy" / "systemd" / "powergrid-beat.service").read_text()
    state = re.search(r"^StateDirectory=(\S+)$", unit, re.M)
    schedule = re.search(r"--schedule (\S+)", unit)
    assert state is not None
    assert schedule is not None
    assert schedule.group(1).startswith(f"/var/lib/{state.group(1)}/")
