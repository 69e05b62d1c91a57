"""scripts/db_follow, the application's part of a failover and a restore, run for real with
stand-ins for ``systemd-run``, ``chown``, the application's Python and its restart.

An operator's review found: the new DATABASE_URL went into a sed replacement, so a URL with
``&``, ``|`` or ``\\`` came out corrupted in the environment file; and manage.py ran without
/etc/powergrid/env (DEBUG on, the default broker, no journal folder) and as root, where the
units run it as the ``powergrid`` user with that file."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "db_follow"

# systemd-run: its options logged, then the command after them run (here, as this user).
FAKE_SYSTEMD_RUN = """#!/bin/sh
echo "systemd-run $*" >> "$LOG"
while [ $# -gt 0 ]; do
  case "$1" in
    -p) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
exec "$@"
"""
# The application's Python: what manage.py was asked and which DATABASE_URL it saw.
FAKE_PYTHON = """#!/bin/sh
shift
echo "manage $1 url=$DATABASE_URL replica=${DATABASE_REPLICA_URL:-none}" >> "$LOG"
"""

ODD_URL = r"postgres://powergrid:p%26w@db2:5432/powergrid?sslmode=require&a=b|c\d"


def run(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    (bin_ / "systemd-run").write_text(FAKE_SYSTEMD_RUN)
    app = tmp_path / "app"
    (app / ".venv" / "bin").mkdir(parents=True, exist_ok=True)
    (app / ".venv" / "bin" / "python").write_text(FAKE_PYTHON)
    for f in (bin_ / "systemd-run", app / ".venv" / "bin" / "python"):
        f.chmod(0o755)
    env = {
        "PATH": f"{bin_}:{os.environ['PATH']}",
        "LOG": str(tmp_path / "log"),
        "APP_DIR": str(app),
        "APP_RESTART": 'echo "app-restart" >> "$LOG"',
        **extra,
    }
    return subprocess.run(
        [str(SCRIPT), "--new-database-url", ODD_URL, "--label", "restore-x", *args],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_a_url_with_ampersand_bar_and_backslash_is_written_as_it_is(tmp_path):
    env_file = tmp_path / "env"
    env_file.write_text(
        "SECRET_KEY=k\nDATABASE_URL=postgres://old@db1/powergrid\n"
        "DATABASE_REPLICA_URL=postgres://old@db2/powergrid\nDEBUG=false\n"
    )
    env_file.chmod(0o600)
    done = run(tmp_path, "--env-file", str(env_file))
    assert done.returncode == 0, done.stderr
    assert env_file.read_text().splitlines() == [
        "SECRET_KEY=k",
        f"DATABASE_URL={ODD_URL}",
        "#DATABASE_REPLICA_URL=postgres://old@db2/powergrid",
        "DEBUG=false",
    ]
    assert env_file.stat().st_mode & 0o777 == 0o600
    assert not list(tmp_path.glob("env.*"))  # no temporary file left


def test_manage_runs_as_the_units_do_with_the_env_file_and_the_new_url(tmp_path):
    env_file = tmp_path / "env"
    env_file.write_text("DATABASE_URL=postgres://old@db1/powergrid\n")
    done = run(tmp_path, "--env-file", str(env_file), "--journal", str(tmp_path))
    assert done.returncode == 0, done.stderr
    log = (tmp_path / "log").read_text().splitlines()
    runs = [line for line in log if line.startswith("systemd-run")]
    assert len(runs) == 2
    for line in runs:
        assert "--uid=powergrid --gid=powergrid" in line
        assert f"EnvironmentFile={env_file}" in line
        assert f"WorkingDirectory={tmp_path / 'app'}" in line
    manage = [line for line in log if line.startswith("manage")]
    assert manage == [
        f"manage after_restore url={ODD_URL} replica=none",
        f"manage check_replays url={ODD_URL} replica=none",
    ]
    assert log.index(manage[0]) < log.index("app-restart") < log.index(manage[1])


def test_without_env_file_the_default_one_is_still_read(tmp_path):
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    runs = [x for x in (tmp_path / "log").read_text().splitlines() if x.startswith("systemd")]
    assert all("EnvironmentFile=/etc/powergrid/env" in line for line in runs)
