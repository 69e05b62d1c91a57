"""deploy/backup/ and its units, as an operator's review asked: the synchronous standbys are
named only once one streams (set before, every commit waits), put back after a failover, and
the hourly check fails while they are not (``powergrid-standbys``); old streamed WAL is deleted
only once the archive has it (``powergrid-stream-prune``); each unit says on which host it runs,
and the backup units act on whichever database host is the primary now. The scripts run here
with a stand-in for psql or pgbackrest, and ``powergrid-standbys`` once against the test
PostgreSQL server (a primary without standbys)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
STANDBYS = DEPLOY / "backup" / "powergrid-standbys"
PRUNE = DEPLOY / "backup" / "powergrid-stream-prune"

FAKE_PSQL = """#!/bin/sh
for a in "$@"; do case "$a" in ALTER*) echo "$a" >> "$LOG" ;; esac; done
[ "$FAKE_RECOVERY" != down ] || { echo "could not connect" >&2; exit 2; }
case "$*" in
  *pg_is_in_recovery*) echo "$FAKE_RECOVERY" ;;
  *"SHOW synchronous_standby_names"*) printf '%s\\n' "$FAKE_SYNC" ;;
  *pg_stat_replication*) printf '%s' "$FAKE_STREAMING" | tr ',' '\\n' ;;
esac
"""
NAMES = "FIRST 2 (powergrid_replica, powergrid_receivewal)"


def standbys(tmp_path: Path, *args: str, **fake: str | None) -> subprocess.CompletedProcess[str]:
    psql = tmp_path / "psql"
    psql.write_text(FAKE_PSQL)
    psql.chmod(0o755)
    env = {"PATH": os.environ["PATH"], "PSQL": str(psql), "LOG": str(tmp_path / "log")}
    env.update({"FAKE_RECOVERY": "f", "FAKE_SYNC": "", "FAKE_STREAMING": "", "PGPORT": "5432"})
    env.update({"PGBACKREST_CONF": str(tmp_path / "no-pgbackrest.conf")}, **fake)
    env = {k: v for k, v in env.items() if v is not None}
    return subprocess.run(
        [str(STANDBYS), *args], env=env, capture_output=True, text=True, timeout=30
    )


def altered(tmp_path: Path) -> list[str]:
    log = tmp_path / "log"
    return log.read_text().splitlines() if log.exists() else []


def test_on_refuses_while_no_named_standby_streams(tmp_path):
    done = standbys(tmp_path, "on")
    assert done.returncode == 1
    assert "every commit would wait" in done.stderr
    assert altered(tmp_path) == []


def test_on_names_both_only_once_both_stream(tmp_path):
    """Both must confirm each commit (a failover and a restore to the latest point each find
    every acknowledged move): named while one is away, every commit would wait."""
    done = standbys(tmp_path, "on", FAKE_STREAMING="powergrid_receivewal")
    assert done.returncode == 1
    assert "not streaming: powergrid_replica" in done.stderr
    assert "powergrid-standbys only" in done.stderr
    assert altered(tmp_path) == []
    both = standbys(tmp_path, "on", FAKE_STREAMING="powergrid_receivewal,powergrid_replica")
    assert both.returncode == 0, both.stderr
    assert altered(tmp_path) == [f"ALTER SYSTEM SET synchronous_standby_names = '{NAMES}'"]


def test_only_runs_degraded_on_the_one_left_and_says_what_it_costs(tmp_path):
    done = standbys(tmp_path, "only", "powergrid_receivewal", FAKE_STREAMING="powergrid_receivewal")
    assert done.returncode == 0, done.stderr
    assert altered(tmp_path) == [
        "ALTER SYSTEM SET synchronous_standby_names = 'powergrid_receivewal'"
    ]
    assert "a failover to the replica may now lose moves" in done.stdout
    away = standbys(tmp_path, "only", "powergrid_replica", FAKE_STREAMING="powergrid_receivewal")
    assert away.returncode == 1  # named alone while away, every commit would wait
    assert standbys(tmp_path, "only", "someone").returncode == 2
    check = standbys(
        tmp_path, "check", FAKE_SYNC="powergrid_receivewal", FAKE_STREAMING="powergrid_receivewal"
    )
    assert check.returncode == 1
    assert "degraded" in check.stdout
    assert "FAIL: powergrid_replica is not streaming" in check.stdout


def test_the_check_fails_on_a_primary_left_unprotected_after_a_failover(tmp_path):
    done = standbys(
        tmp_path, "check", FAKE_STREAMING="powergrid_receivewal,powergrid_replica", FAKE_SYNC=""
    )
    assert done.returncode == 1
    assert "synchronous_standby_names is empty" in done.stdout
    assert "powergrid-standbys on" in done.stdout


def test_the_check_fails_while_a_named_standby_is_not_streaming(tmp_path):
    done = standbys(tmp_path, "check", FAKE_SYNC=NAMES, FAKE_STREAMING="powergrid_receivewal")
    assert done.returncode == 1
    assert "FAIL: powergrid_replica is not streaming" in done.stdout


def test_the_check_passes_when_both_stream_and_are_named(tmp_path):
    done = standbys(
        tmp_path, "check", FAKE_SYNC=NAMES, FAKE_STREAMING="powergrid_replica,powergrid_receivewal"
    )
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("ok:")


def test_on_a_standby_the_check_has_nothing_to_do_and_the_units_skip(tmp_path):
    assert standbys(tmp_path, "check", FAKE_RECOVERY="t").returncode == 0
    assert standbys(tmp_path, "is-primary", FAKE_RECOVERY="t").returncode == 1
    assert standbys(tmp_path, "is-primary", FAKE_RECOVERY="f").returncode == 0


def test_a_database_that_does_not_answer_fails_the_units_rather_than_skipping_them(tmp_path):
    # ExecCondition: 1-254 skips the unit quietly, 255 fails it (the monitoring sees it).
    assert standbys(tmp_path, "is-primary", FAKE_RECOVERY="down").returncode == 255
    assert standbys(tmp_path, "check", FAKE_RECOVERY="down").returncode == 1


def test_the_units_test_the_configured_cluster_or_fail(tmp_path):
    """After a restore onto another port the units tested the old cluster on 5432 (fenced: a
    standby) and were skipped, silently. The port is configured (database.env), the same as
    pgBackRest's pg1-port; unset or different, the units fail."""
    assert standbys(tmp_path, "is-primary", PGPORT=None).returncode == 255
    assert standbys(tmp_path, "check", PGPORT=None).returncode == 1
    conf = tmp_path / "pgbackrest.conf"
    conf.write_text("[powergrid]\npg1-path=/var/lib/postgresql/15/restored\npg1-port=5433\n")
    wrong = standbys(tmp_path, "is-primary", PGBACKREST_CONF=str(conf))  # PGPORT=5432
    assert wrong.returncode == 255
    assert "pg1-port=5433" in wrong.stderr
    assert (
        standbys(tmp_path, "is-primary", PGBACKREST_CONF=str(conf), PGPORT="5433").returncode == 0
    )
    for unit in ("powergrid-backup@.service", "powergrid-backup-check.service"):
        text = (DEPLOY / "systemd" / unit).read_text()
        assert "\nEnvironmentFile=/etc/powergrid/database.env\n" in text, unit  # no '-': required


def test_against_a_real_primary_without_standbys(tmp_path):
    psql = shutil.which("psql") or next(
        iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))), None
    )
    if psql is None:
        pytest.skip("no psql")
    url = "postgres://postgres@127.0.0.1:5432/postgres"
    env = {"PATH": os.environ["PATH"], "PSQL": str(psql)}
    probe = subprocess.run(
        [str(psql), "-XAtq", url, "-c", "SHOW synchronous_standby_names"],
        capture_output=True, text=True, timeout=30, env=env,
    )  # fmt: skip
    if probe.returncode != 0:
        pytest.skip("the test PostgreSQL server does not answer")
    if probe.stdout.strip():
        pytest.skip("the test server has synchronous standbys named")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(STANDBYS), *args, "--url", url], env=env, capture_output=True, text=True,
            timeout=30,
        )  # fmt: skip

    assert run("is-primary").returncode == 0
    check = run("check")
    assert check.returncode == 1
    assert "synchronous_standby_names is empty" in check.stdout
    assert "FAIL: powergrid_receivewal is not streaming" in check.stdout
    on = run("on")
    assert on.returncode == 1  # nothing streams: it must not name them
    again = subprocess.run(
        [str(psql), "-XAtq", url, "-c", "SHOW synchronous_standby_names"],
        capture_output=True, text=True, timeout=30, env=env,
    )  # fmt: skip
    assert again.stdout.strip() == ""


# ---------------------------------------------------------------- streamed WAL clean-up

FAKE_PGBACKREST = """#!/bin/sh
echo "$*" >> "$LOG"
printf '%s\\n' 15-1 15-1/0000000100000000 archive.info
for n in $ARCHIVED; do
  case "$n" in *.history) echo "15-1/$n" ;; *) echo "15-1/0000000100000000/$n-0123abcd.zst" ;; esac
done
"""


def prune(tmp_path: Path, files: dict[str, float], archived: list[str]):
    wal = tmp_path / "stream"
    wal.mkdir()
    now = time.time()
    for name, days in files.items():
        (wal / name).write_text("x")
        os.utime(wal / name, (now - days * 86400, now - days * 86400))
    fake = tmp_path / "pgbackrest"
    fake.write_text(FAKE_PGBACKREST)
    fake.chmod(0o755)
    env = {
        "PATH": os.environ["PATH"],
        "WALDIR": str(wal),
        "PGBACKREST": str(fake),
        "ARCHIVED": " ".join(archived),
        "LOG": str(tmp_path / "log"),
    }
    done = subprocess.run([str(PRUNE)], env=env, capture_output=True, text=True, timeout=30)
    return done, sorted(p.name for p in wal.iterdir())


SEG = "0000000100000000000000{:02X}"


def test_old_streamed_segments_the_archive_has_are_deleted_and_the_rest_kept(tmp_path):
    files = {SEG.format(1): 9, SEG.format(2): 8, "00000002.history": 9, SEG.format(3): 1}
    files[SEG.format(4) + ".partial"] = 30  # being written: never touched
    done, left = prune(tmp_path, files, [SEG.format(1), SEG.format(2), "00000002.history"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert left == [SEG.format(3), SEG.format(4) + ".partial"]
    assert "3 streamed files deleted" in done.stdout


def test_an_old_segment_missing_from_the_archive_is_kept_and_fails_the_unit(tmp_path):
    done, left = prune(tmp_path, {SEG.format(1): 9, SEG.format(2): 9}, [SEG.format(2)])
    assert done.returncode == 1
    assert left == [SEG.format(1)]
    assert f"kept {SEG.format(1)}: older than 7 days and not in the archive" in done.stdout


def test_nothing_old_asks_nothing_of_the_repository(tmp_path):
    done, left = prune(tmp_path, {SEG.format(1): 2}, [])
    assert done.returncode == 0
    assert left == [SEG.format(1)]
    assert not (tmp_path / "log").exists()


# ---------------------------------------------------------------- the units and settings

BACKUP_UNITS = [
    "powergrid-backup@.service",
    "powergrid-backup-full.timer",
    "powergrid-backup-diff.timer",
    "powergrid-backup-check.service",
    "powergrid-backup-check.timer",
    "powergrid-receivewal.service",
    "powergrid-stream-prune.service",
    "powergrid-stream-prune.timer",
]


@pytest.mark.parametrize("unit", BACKUP_UNITS)
def test_each_backup_unit_says_on_which_host_it_runs(unit):
    text = (DEPLOY / "systemd" / unit).read_text()
    assert re.search(r"Runs on: (each database host|the backup host)", text, re.I), unit


@pytest.mark.parametrize("unit", ["powergrid-backup@.service", "powergrid-backup-check.service"])
def test_the_backup_units_act_on_the_primary_only(unit):
    text = (DEPLOY / "systemd" / unit).read_text()
    assert "\nExecCondition=/usr/local/sbin/powergrid-standbys is-primary\n" in text


def test_the_hourly_check_includes_the_standbys_check():
    text = (DEPLOY / "systemd" / "powergrid-backup-check.service").read_text()
    assert "\nExecStart=/usr/local/sbin/powergrid-standbys check\n" in text


def test_the_stream_prune_keeps_what_the_unit_and_the_docs_say():
    unit = (DEPLOY / "systemd" / "powergrid-stream-prune.service").read_text()
    assert "KEEP_DAYS=7" in unit
    assert "ExecStart=/usr/local/sbin/powergrid-stream-prune" in unit


def test_postgresql_backup_conf_does_not_name_the_synchronous_standbys():
    """Named in the included file, they would be in force from the first restart, before any
    standby streams: every commit would wait. ``powergrid-standbys on`` names them."""
    text = (DEPLOY / "backup" / "postgresql-backup.conf").read_text()
    assert not re.search(r"^\s*synchronous_standby_names", text, re.M)
    assert re.search(r"^synchronous_commit = on$", text, re.M)


def test_the_receiver_reads_its_primary_from_a_file_a_restart_rereads():
    text = (DEPLOY / "systemd" / "powergrid-receivewal.service").read_text()
    assert "\nEnvironmentFile=-/etc/powergrid/receivewal.env\n" in text
    assert "daemon-reload" in text
    # the primary's port too (a restored cluster may run on another), and the replicator's
    # password from a password file (scram: no password source, no connection)
    assert re.search(r"^Environment=PGHOST=\S+ PGPORT=5432 ", text, re.M)
    assert "\nEnvironment=PGPASSFILE=/etc/powergrid/receivewal.pgpass\n" in text
    assert ":replication:replicator:" in text


# ---------------------------------------------------------------- the operator's steps

OPERATIONS = DEPLOY / "OPERATIONS.md"
SCRIPTS = DEPLOY.parent / "scripts"


def _between(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("**Setting it up**", "**Checks.**"),
        ("### Failover", "**A half-finished failover**"),
        ("### Point-in-time restore", "**A half-finished restore:**"),
    ],
)
def test_each_step_says_on_which_host_and_as_whom(start, end):
    text = _between(OPERATIONS.read_text(), start, end)
    steps = re.findall(r"^\d+\. ", text, re.M)
    labels = re.findall(r"^\d+\. \*\*([^*]+):\*\*", text, re.M)  # a label may wrap
    assert len(steps) >= 5
    assert len(labels) == len(steps), labels
    for label in labels:
        assert re.search(r"\b(root|postgres)\b", label), label
        assert "host" in label or "primary" in label, label


def test_the_failover_stops_the_application_and_fences_before_it_promotes():
    section = _between(OPERATIONS.read_text(), "### Failover", "### Point-in-time restore")
    stop = section.index("stop the application")
    fence = section.index("fence it")
    promote = section.index("promotes the replica")
    assert stop < fence < promote
    assert "powergrid-standbys on" in section
    assert "application_name=powergrid_replica" in section
    assert "daemon-reload" in section


def test_the_restore_fences_and_keeps_the_old_data():
    section = _between(OPERATIONS.read_text(), "### Point-in-time restore", "### After a recovery")
    assert section.index("stop the application") < section.index("fence the old cluster")
    assert "move it aside first" in section
    assert "--config-dir" in section


@pytest.mark.parametrize(
    ("script", "where"),
    [
        ("db_failover", "ON AN APPLICATION HOST"),
        ("db_follow", "ON AN APPLICATION HOST"),
        ("db_fence", "ON ITS OWN HOST"),
        ("db_restore", "ON THE HOST THAT WILL RUN THE RESTORED CLUSTER"),
    ],
)
def test_each_recovery_script_says_where_it_runs_and_is_documented(script, where):
    done = subprocess.run(
        [str(SCRIPTS / script), "--help"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0
    assert where in done.stdout.replace("\n", " ").replace("# ", "")
    assert f"scripts/{script}" in OPERATIONS.read_text()


# ---------------------------------------------------------------- after a restore

ASIDE = DEPLOY / "backup" / "powergrid-stream-aside"
REPLICA_CONF = DEPLOY / "backup" / "powergrid-replica-conf"


def test_the_old_stream_is_moved_aside_kept_and_the_receiver_restarted_on_an_empty_one(tmp_path):
    """After a restore to a named time the receiver resumed from the old timeline's newest
    segment, a point the new primary never reaches, and failed at every restart."""
    stream = tmp_path / "stream"
    stream.mkdir()
    (stream / (SEG.format(9) + ".partial")).write_text("the old timeline's last second")
    (stream / SEG.format(8)).write_text("x")
    systemctl = tmp_path / "systemctl"
    systemctl.write_text('#!/bin/sh\necho "systemctl $*" >> "$LOG"\n')
    systemctl.chmod(0o755)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    env = {"PATH": os.environ["PATH"], "WALDIR": str(stream), "SYSTEMCTL": str(systemctl),
           "LOG": str(tmp_path / "log"), "PG_OS_USER": user}  # fmt: skip
    done = subprocess.run([str(ASIDE)], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    (aside,) = tmp_path.glob("stream.before-*")
    assert sorted(p.name for p in aside.iterdir()) == [SEG.format(8), SEG.format(9) + ".partial"]
    assert list(stream.iterdir()) == []
    assert (tmp_path / "log").read_text().splitlines() == [
        "systemctl stop powergrid-receivewal",
        "systemctl start powergrid-receivewal",
    ]
    assert f"old stream kept in {aside}" in done.stdout
    assert "A point on an older timeline" in done.stdout  # how a restore reads it


def test_a_new_replica_drops_inherited_recovery_settings_and_sets_its_own(tmp_path):
    data = tmp_path / "main"
    data.mkdir()
    (data / "PG_VERSION").write_text("15\n")
    (data / "standby.signal").write_text("")
    (data / "postgresql.auto.conf").write_text(
        "# Do not edit this file manually!\nport = '5432'\n"
        "restore_command = 'pgbackrest --stanza=powergrid --pg1-path=/var/lib/postgresql/15/"
        "restored archive-get %f \"%p\"'\nrecovery_target_time = '2026-11-29 14:02:00+00'\n"
        "recovery_target_action = 'promote'\n"
        "primary_conninfo = 'user=replicator host=db1 application_name=powergrid_replica'\n"
    )
    done = subprocess.run(
        [str(REPLICA_CONF), str(data)], capture_output=True, text=True, timeout=30,
        env={"PATH": os.environ["PATH"]},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = (data / "postgresql.auto.conf").read_text().splitlines()
    assert not [x for x in lines if x.startswith("recovery_target")]
    assert [x for x in lines if x.startswith("restore_command")] == [
        "restore_command = 'pgbackrest --stanza=powergrid archive-get %f \"%p\"'"
    ]
    assert "port = '5432'" in lines
    assert "3 inherited recovery settings out" in done.stdout
    (data / "postgresql.auto.conf").write_text("primary_conninfo = 'user=replicator host=db1'\n")
    unnamed = subprocess.run([str(REPLICA_CONF), str(data)], capture_output=True, text=True)
    assert unnamed.returncode == 1
    assert "application_name=powergrid_replica" in unnamed.stderr


def test_the_replica_build_step_runs_it():
    readme = (DEPLOY / "README.md").read_text()
    step = readme[readme.index("9. A read replica") : readme.index("## The production smoke")]
    assert (
        step.index("pg_basebackup")
        < step.index("powergrid-replica-conf")
        < step.index("systemctl start postgresql@15-main")
    )
