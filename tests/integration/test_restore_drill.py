"""scripts/restore_drill --quick as part of the suite: a primary configured for backups
(pgBackRest archive-push, the replica and pg_receivewal as synchronous standbys), its streaming
replica, a full backup, the web and the workers, games in flight through the API; the primary
killed and the replica promoted (scripts/db_failover); the new primary killed and a new cluster
restored to the latest point (scripts/db_restore); then a restore to a named time that loses
moves on purpose, and the players told (manage.py after_restore). The script checks and prints;
this test runs it and reads its last line. Locally it skips without PostgreSQL's server
programs, pgbackrest or redis-server; under CI=true it fails. About 4-5 minutes on the shared
2-core machine; it leaves nothing running."""

from __future__ import annotations

import glob
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from livehelpers import run_script, unavailable
from test_season import ports_in_use, season_port_base

pytestmark = [pytest.mark.integration]

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "restore_drill"


def test_quick_restore_drill():
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        unavailable("PostgreSQL's server programs (initdb)")
    for program in ("pgbackrest", "redis-server"):
        if not shutil.which(program):
            unavailable(program)
    # A base chosen as the season's (free, below the ephemeral range), or the one given.
    base = int(os.environ.get("RESTORE_DRILL_PORT_BASE") or season_port_base())
    cmd = ["nice", "-n", "10", sys.executable, str(SCRIPT), "--quick", "--port-base", str(base)]
    out = run_script(cmd, timeout=900)
    tail = f"{out.stdout[-8000:]}\n{out.stderr[-3000:]}"
    print(out.stdout[-8000:])
    assert out.returncode == 0, tail
    assert not ports_in_use(base), "the drill left a process listening"
    last = json.loads(out.stdout.rstrip().splitlines()[-1])
    assert last["tool"].startswith("pgbackrest"), last
    assert last["games"] > 0, last
    assert last["moves"] > 0, last
    assert last["failover"]["moves_lost"] == 0, tail
    assert last["pitr"]["moves_lost"] == 0, tail
    assert last["replay_mismatches"] == 0, tail
    assert last["emails_doubled"] == 0, tail
    assert last["players_told"] > 0, tail
    assert 0 < last["failover"]["rto_s"] < 120, last
    assert 0 < last["pitr"]["rto_s"] < 180, last
