"""scripts/season --quick, the season in minutes, as part of the suite: the production topology
past one machine (a PostgreSQL primary and its streaming replica, two gunicorn web hosts behind
nginx, the stream server, Celery workers by queue, beat, Redis, an SMTP sink), a few dozen games
played through every channel while each fault of the schedule happens once, and the invariants
checked at the end. The script checks and prints; this test runs it and reads its last line.
Locally it skips without PostgreSQL's server programs, nginx or redis-server; under CI=true it
fails. It takes 7-11 minutes on the shared 2-core machine (half of it starting the processes
at a load of 20)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from livehelpers import run_script, unavailable

pytestmark = [pytest.mark.integration]

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "season"
FAULTS = [
    "kill_web_host", "kill_worker_email", "kill_worker_moves", "kill_worker_hooks", "kill_beat",
    "restart_redis", "pause_replica", "smtp_refusing", "restart_primary",
]  # fmt: skip


@pytest.mark.skipif(
    not os.environ.get("RUN_SEASON"),
    reason="the quick season runs by hand (RUN_SEASON=1): it is not yet reliable enough for CI "
    "(issue 25 stays open: its last runs here failed without a printed cause)",
)
def test_quick_season():
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        unavailable("PostgreSQL's server programs (initdb)")
    for program in ("nginx", "redis-server"):
        if not (shutil.which(program) or Path(f"/usr/sbin/{program}").exists()):
            unavailable(program)
    out = run_script(["nice", "-n", "10", sys.executable, str(SCRIPT), "--quick"], timeout=1200)
    print(out.stdout[-8000:])  # the figures, shown with -s or -rA
    assert out.returncode == 0, out.stdout[-8000:] + out.stderr[-3000:]
    last = json.loads(out.stdout.rstrip().splitlines()[-1])
    for name in ("emails_lost", "emails_doubled", "http_5xx", "stale_reads_after_write",
                 "replay_mismatches", "stuck_games"):  # fmt: skip
        assert last[name] == 0, (name, last)
    assert last["replica_reads"] > 0
    assert last["web_hosts"] == 2
    assert last["faults"] == FAULTS
    assert last["finished"] > 0
    assert last["moves"] > 0
    assert last["emails_sent"] > 0
