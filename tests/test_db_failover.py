"""scripts/db_failover and scripts/db_fence run here for real, with stand-ins for PostgreSQL's
programs (pg_ctl, psql), ``runuser``, ``id``, manage.py and the application's stop and restart,
each writing one line to a shared log, so the order of the steps is what is checked.

An operator's review found: the fencing of the old primary was silently a no-op as root (pg_ctl
refuses to run as root and the script hid it with ``|| true``); the web and the workers were not
stopped before the promotion; a re-run after a half-finished failover promoted again and told
the players again under a new label; and the reset of ``synchronous_standby_names`` was never
asked for. A second review (real clusters) found: a replica that had promoted itself (a recovery
target inherited from a restored cluster) was taken for an earlier run's promotion and the
application moved to it; an unreachable replica was found only after the fencing. Now the
replica is checked first (it answers as a superuser, a standby on the lost primary's timeline,
or promoted by a run recorded in the state file, or --resume). scripts/restore_drill runs the
scripts against real clusters."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"

FAKES = {
    # pg_ctl: status from the state file (0 running, 3 stopped, 4 unreadable); stop fails when
    # FAKE_STOP_FAILS is set, else the cluster is stopped.
    "pg_ctl": """#!/bin/sh
echo "pg_ctl $*" >> "$LOG"
case " $* " in
  *" status "*)
    case "$(cat "$STATE/old")" in running) exit 0 ;; unreadable) exit 4 ;; *) exit 3 ;; esac ;;
  *" stop"*) [ -z "$FAKE_STOP_FAILS" ] || exit 1; echo stopped > "$STATE/old" ;;
esac
""",
    # psql against the replica: in recovery until pg_promote (on timeline $STATE/tl, the next
    # one after); FAKE_DOWN: it does not answer; FAKE_SUPER: is_superuser. The SQL is logged.
    "psql": """#!/bin/sh
for a in "$@"; do case "$a" in SELECT*|ALTER*|SHOW*) echo "psql $a" >> "$LOG" ;; esac; done
[ -z "$FAKE_DOWN" ] || {
  echo 'psql: error: connection to server at "db2" failed: timeout expired' >&2; exit 2; }
case "$*" in
  *is_superuser*) echo "${FAKE_SUPER:-on}" ;;
  *pg_promote*) echo f > "$STATE/recovery"; echo $(( $(cat "$STATE/tl") + 1 )) > "$STATE/tl" ;;
  *pg_is_in_recovery*) cat "$STATE/recovery" ;;
  *pg_control_system*) echo "${FAKE_SYSID:-7300000000000000001}" ;;
  *pg_control_checkpoint*) cat "$STATE/tl" ;;
  *substr*pg_walfile_name*) printf '%08X\n' "$(cat "$STATE/tl")" ;;
  *pg_walfile_name*) printf '%08X000000000000000A\n' "$(cat "$STATE/tl")" ;;
  *"SHOW synchronous_standby_names"*) cat "$STATE/sync" ;;
  *"ALTER SYSTEM SET synchronous_standby_names = ''"*) : > "$STATE/sync" ;;
  *pg_stat_replication*) echo "${FAKE_STREAMING:-0}" ;;
esac
""",
    # pg_controldata of the old primary: its timeline.
    "pg_controldata": """#!/bin/sh
echo "pg_controldata $*" >> "$LOG"
echo "Latest checkpoint's TimeLineID:       ${FAKE_OLD_TL:-2}"
""",
    # runuser -u USER -- CMD...: logged, then CMD run (as this user: the log says who it would be).
    "runuser": """#!/bin/sh
echo "runuser $1 $2" >> "$LOG"
shift 3
exec "$@"
""",
    "id": """#!/bin/sh
case "$1" in -u) echo "${FAKE_UID:-0}" ;; -un) echo "${FAKE_USER:-root}" ;; *) echo uid=0 ;; esac
""",
    "touch": """#!/bin/sh
echo "touch $*" >> "$LOG"
exec /usr/bin/touch "$@"
""",
    "manage": """#!/bin/sh
echo "manage $*" >> "$LOG"
case "$1" in
  after_restore) echo '{"label": "x", "players_told": 0}' ;;
  check_replays) echo "3 games replayed, 0 differ" ;;
esac
""",
}


@pytest.fixture
def rig(tmp_path):
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name, text in FAKES.items():
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    state = tmp_path / "state"
    state.mkdir()
    (state / "old").write_text("running\n")
    (state / "recovery").write_text("t\n")
    (state / "tl").write_text("2\n")
    (state / "sync").write_text("FIRST 2 (powergrid_replica, powergrid_receivewal)\n")
    old = tmp_path / "old-primary"
    old.mkdir()
    (old / "PG_VERSION").write_text("15\n")
    env = {
        "PATH": f"{bin_}:{os.environ['PATH']}",
        "LOG": str(tmp_path / "log"),
        "STATE": str(state),
        "PG_BIN": str(bin_),
        "MANAGE": str(bin_ / "manage"),
        "APP_STOP": 'echo "app-stop" >> "$LOG"',
        "APP_RESTART": 'echo "app-restart" >> "$LOG"',
        "HOME": str(tmp_path),
    }
    journal = tmp_path / "journal"
    journal.mkdir()

    class Rig:
        path = tmp_path
        old_data = old
        state_file = journal / "db_failover.state"

        def run(self, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
            argv = [
                str(SCRIPTS / "db_failover"),
                "--replica-url",
                "postgres://postgres@db2/postgres",
                "--new-database-url",
                "postgres://powergrid@db2/powergrid",
                "--journal",
                str(journal),
                *args,
            ]
            return subprocess.run(
                argv, env={**env, **extra}, capture_output=True, text=True, timeout=60
            )

        def log(self) -> list[str]:
            log = tmp_path / "log"
            return log.read_text().splitlines() if log.exists() else []

        def index(self, prefix: str) -> int:
            return next(i for i, line in enumerate(self.log()) if line.startswith(prefix))

    return Rig()


def test_as_root_the_old_primary_is_fenced_as_postgres_after_the_app_stops_and_before_the_promotion(
    rig,
):
    done = rig.run("--old-primary-data", str(rig.old_data))
    assert done.returncode == 0, done.stderr
    log = rig.log()
    # pg_ctl and the signal file as the PostgreSQL OS user (pg_ctl refuses root)
    assert "runuser -u postgres" in log
    for i, line in enumerate(log):
        if line.startswith(("pg_ctl", "touch")):
            assert log[i - 1] == "runuser -u postgres", line
    assert rig.index("app-stop") < rig.index("pg_ctl -D") < rig.index("psql SELECT pg_promote")
    assert rig.index("touch") < rig.index("psql SELECT pg_promote")
    assert rig.index("psql SELECT pg_promote") < rig.index("manage after_restore")
    assert rig.index("manage after_restore") < rig.index("app-restart")
    assert rig.index("app-restart") < rig.index("manage check_replays")
    assert (rig.old_data / "standby.signal").exists()
    assert "was running" in done.stdout
    assert "stopped (pg_ctl stop -m immediate" in done.stdout
    assert "standby.signal written" in done.stdout


def test_another_os_user_is_an_option(rig):
    done = rig.run("--old-primary-data", str(rig.old_data), "--os-user", "pgsql")
    assert done.returncode == 0, done.stderr
    assert "runuser -u pgsql" in rig.log()
    assert "runuser -u postgres" not in rig.log()


def test_a_fencing_that_fails_stops_the_failover_before_the_promotion(rig):
    done = rig.run("--old-primary-data", str(rig.old_data), FAKE_STOP_FAILS="1")
    assert done.returncode != 0
    assert "NOT fenced" in done.stderr
    assert "nothing was promoted" in done.stderr
    assert not [line for line in rig.log() if "pg_promote" in line]
    assert not [line for line in rig.log() if line.startswith("manage")]
    assert not (rig.old_data / "standby.signal").exists()


def test_a_folder_that_is_no_cluster_is_not_taken_as_fenced(rig, tmp_path):
    empty = tmp_path / "not-a-cluster"
    empty.mkdir()
    done = rig.run("--old-primary-data", str(empty))
    assert done.returncode != 0
    assert "not a data folder" in done.stderr
    assert not [line for line in rig.log() if "pg_promote" in line]


def test_an_old_primary_already_down_gets_its_signal_file_and_no_stop(rig):
    (Path(rig.path) / "state" / "old").write_text("stopped\n")
    done = rig.run("--old-primary-data", str(rig.old_data))
    assert done.returncode == 0, done.stderr
    assert not [line for line in rig.log() if line.startswith("pg_ctl") and "stop" in line]
    assert (rig.old_data / "standby.signal").exists()
    assert "was not running" in done.stdout


def test_without_a_fencing_choice_nothing_is_done(rig):
    done = rig.run()
    assert done.returncode == 2
    assert "--old-primary-unreachable" in done.stderr
    assert rig.log() == []
    two = rig.run("--old-primary-data", str(rig.old_data), "--old-primary-unreachable")
    assert two.returncode == 2
    assert rig.log() == []


def test_old_primary_unreachable_is_said_and_the_app_still_stops_first(rig):
    done = rig.run("--old-primary-unreachable")
    assert done.returncode == 0, done.stderr
    assert "NOT fenced by this script" in done.stdout
    assert not [line for line in rig.log() if line.startswith("pg_ctl")]
    assert rig.index("app-stop") < rig.index("psql SELECT pg_promote")


def test_a_fence_command_runs_before_the_promotion_and_its_failure_stops_the_failover(rig):
    ok = rig.run("--fence-command", 'echo "fence db1" >> "$LOG"')
    assert ok.returncode == 0, ok.stderr
    assert rig.index("app-stop") < rig.index("fence db1") < rig.index("psql SELECT pg_promote")
    (rig.path / "log").unlink()
    (rig.path / "state" / "recovery").write_text("t\n")
    bad = rig.run("--fence-command", "exit 3")
    assert bad.returncode != 0
    assert "the fence command failed" in bad.stderr
    assert not [line for line in rig.log() if "pg_promote" in line]


def test_when_the_app_cannot_be_stopped_nothing_else_happens(rig):
    done = rig.run("--old-primary-unreachable", APP_STOP="exit 1")
    assert done.returncode != 0
    assert "nothing was promoted" in done.stderr
    assert all(line.startswith(("psql SELECT", "psql SHOW")) for line in rig.log()), rig.log()
    assert not [line for line in rig.log() if "pg_promote" in line]


def test_a_rerun_does_not_promote_again_and_tells_under_the_same_label(rig):
    def told() -> list[str]:
        return [line for line in rig.log() if line.startswith("manage after_restore")]

    first = rig.run("--old-primary-data", str(rig.old_data))
    assert first.returncode == 0, first.stderr
    assert "replica promoted: timeline 3" in first.stdout
    assert "timeline=3" in rig.state_file.read_text()
    before = told()
    (rig.path / "log").unlink()
    again = rig.run("--old-primary-data", str(rig.old_data))
    assert again.returncode == 0, again.stderr
    assert "not promoted again: an earlier run of db_failover promoted it" in again.stdout
    assert "replica promoted:" not in again.stdout  # no contradictory line
    assert not [line for line in rig.log() if "pg_promote" in line]
    assert "was not running" in again.stdout  # fenced already: still fine
    assert before == told()
    assert told()[0].startswith("manage after_restore --no-replays --label failover-timeline-3 ")


def test_a_rerun_after_the_standbys_are_back_leaves_them_named(rig):
    assert rig.run("--old-primary-unreachable").returncode == 0
    names = "FIRST 2 (powergrid_replica, powergrid_receivewal)"
    (rig.path / "state" / "sync").write_text(names + "\n")  # powergrid-standbys on, since
    (rig.path / "log").unlink()
    again = rig.run("--old-primary-unreachable", FAKE_STREAMING="2")
    assert again.returncode == 0, again.stderr
    assert not [line for line in rig.log() if line.startswith("psql ALTER")]
    assert f"synchronous_standby_names left as it is: '{names}'" in again.stdout
    # ... but with none streaming, commits would wait forever: unprotected again, said.
    (rig.path / "log").unlink()
    third = rig.run("--old-primary-unreachable", FAKE_STREAMING="0")
    assert "psql ALTER SYSTEM SET synchronous_standby_names = ''" in rig.log()
    assert "synchronous_standby_names = ''" in third.stdout


def test_a_replica_that_promoted_itself_is_refused_before_anything_is_stopped(rig):
    """The operator's incident: a replica rebuilt from a restored cluster inherited its recovery
    target, promoted itself and took writes; the failover took it for its own earlier run."""
    (rig.path / "state" / "recovery").write_text("f\n")
    (rig.path / "state" / "tl").write_text("3\n")
    done = rig.run("--old-primary-data", str(rig.old_data))
    assert done.returncode == 1
    assert "NOT in recovery" in done.stderr
    assert "--resume" in done.stderr
    assert "Nothing was done" in done.stderr
    assert not [
        line
        for line in rig.log()
        if not line.startswith(("psql SELECT", "psql SHOW", "pg_controldata", "runuser"))
    ]
    assert not (rig.old_data / "standby.signal").exists()
    # A record of another cluster's promotion does not count either.
    rig.state_file.write_text("system_identifier=7399999999999999999\ntimeline=3\n")
    assert rig.run("--old-primary-unreachable").returncode == 1
    # The operator checked it and says so: carried on, not promoted again.
    resumed = rig.run("--old-primary-unreachable", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert "--resume: you checked it" in resumed.stdout
    assert not [line for line in rig.log() if "pg_promote" in line]


def test_a_replica_on_another_timeline_than_the_lost_primary_is_refused(rig):
    done = rig.run("--old-primary-data", str(rig.old_data), FAKE_OLD_TL="1")
    assert done.returncode == 1
    assert "the replica is on timeline 2, the lost primary was on timeline 1" in done.stderr
    assert "app-stop" not in rig.log()
    given = rig.run("--old-primary-unreachable", "--old-primary-timeline", "4")
    assert given.returncode == 1
    assert "lost primary was on timeline 4" in given.stderr
    same = rig.run("--old-primary-unreachable", "--old-primary-timeline", "2")
    assert same.returncode == 0, same.stderr
    assert "standby on the lost primary's timeline (2)" in same.stdout


def test_a_replica_out_of_reach_or_not_as_superuser_stops_the_failover_before_the_fence(rig):
    down = rig.run("--old-primary-data", str(rig.old_data), FAKE_DOWN="1")
    assert down.returncode == 1
    assert "the replica does not answer" in down.stderr
    assert "timeout expired" in down.stderr  # psql's reason, in one line
    assert "Nothing was done" in down.stderr
    assert "app-stop" not in rig.log()
    assert not [line for line in rig.log() if line.startswith("pg_ctl")]
    assert not (rig.old_data / "standby.signal").exists()
    plain = rig.run("--old-primary-data", str(rig.old_data), FAKE_SUPER="off")
    assert plain.returncode == 1
    assert "not connect as a superuser" in plain.stderr
    assert "app-stop" not in rig.log()


def test_the_new_primary_runs_unprotected_and_the_next_steps_put_the_standbys_back(rig):
    done = rig.run("--old-primary-unreachable")
    assert done.returncode == 0, done.stderr
    assert "psql ALTER SYSTEM SET synchronous_standby_names = ''" in rig.log()
    tail = done.stdout[done.stdout.index("Next") :]
    assert "powergrid-standbys on" in tail
    assert "application_name=powergrid_replica" in tail
    assert "daemon-reload" in tail


def test_as_root_an_empty_pg_as_is_refused_before_anything(rig):
    done = rig.run("--old-primary-data", str(rig.old_data), PG_AS="")
    assert done.returncode == 2
    assert "refuse to run as root" in done.stderr
    assert rig.log() == []


def test_the_fence_alone_on_the_old_host(rig):
    """scripts/db_fence is what an operator runs on the old primary's host over ssh."""
    env = {
        "PATH": f"{rig.path / 'bin'}:{os.environ['PATH']}",
        "LOG": str(rig.path / "log"),
        "STATE": str(rig.path / "state"),
        "PG_BIN": str(rig.path / "bin"),
    }
    done = subprocess.run(
        [str(SCRIPTS / "db_fence"), "--data", str(rig.old_data)],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert (rig.path / "state" / "old").read_text().strip() == "stopped"
    assert (rig.old_data / "standby.signal").exists()
    twice = subprocess.run(
        [str(SCRIPTS / "db_fence"), "--data", str(rig.old_data)],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert twice.returncode == 0  # stopped already: the signal file again, fine
    assert "was not running" in twice.stdout
    (rig.path / "state" / "old").write_text("unreadable\n")
    refused = subprocess.run(
        [str(SCRIPTS / "db_fence"), "--data", str(rig.old_data)],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert refused.returncode == 1
    assert "cannot be read" in refused.stderr
