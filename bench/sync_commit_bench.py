"""What the synchronous standbys cost a move: commits with none, one and both, alternated.

deploy/backup/powergrid-standbys names the streaming replica and pg_receivewal (the backup
host's stream) as synchronous standbys, ``FIRST 2``: every commit waits until both have flushed
it, so an acknowledged move survives the primary's loss. This measures the price on this
machine: a primary, a streaming replica of its own and a ``pg_receivewal --synchronous`` into a
folder (scripts/season's helpers: initdb, pg_basebackup -R, pg_ctl), a table shaped like the
move's writes (one INSERT of a move row with its JSON action, one UPDATE of a game row with a
state of ``--state-kb``), and ``--rounds`` rounds of ``--per-round`` transactions per mode,
the modes taking turns by round (asynchronous; ``FIRST 1``: the replica, the first named that
streams; ``FIRST 2``: both), so that the machine's load falls on all alike. Prints the median,
p95 and mean commit time per mode.

    .venv/bin/python bench/sync_commit_bench.py [--rounds 10] [--per-round 100] [--port 9760]

The replica is on the same host here: the figure is the synchronous round trip's cost in
PostgreSQL (the walsender waking, the standby's flush and its reply) without a network; add
the network's round trip between the database hosts (~0.1-0.5 ms in one data centre).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
_loader = importlib.machinery.SourceFileLoader("season", str(ROOT / "scripts" / "season"))
_spec = importlib.util.spec_from_loader("season", _loader)
assert _spec is not None
season = importlib.util.module_from_spec(_spec)
sys.modules["season"] = season
_loader.exec_module(season)


def run(argv: list[str]) -> None:
    out = subprocess.run(season.as_postgres(argv), capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{argv[0]}: {out.stderr}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=100)
    parser.add_argument("--state-kb", type=int, default=8)
    parser.add_argument("--port", type=int, default=9760)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="sync-bench-"))
    os.chmod(tmp, 0o755)
    primary, replica, sock = tmp / "primary", tmp / "replica", tmp / "run"
    stream = tmp / "stream"
    receiver: subprocess.Popen[bytes] | None = None
    for d in (primary, replica, sock, stream):
        d.mkdir()
        if os.geteuid() == 0:
            shutil.chown(d, "postgres", "postgres")
        os.chmod(d, 0o700)
    p, r = args.port, args.port + 1
    ctl = season.pg_bin("pg_ctl")
    try:
        run([season.pg_bin("initdb"), "-D", str(primary), "-U", "postgres", "--auth=trust"])
        with (primary / "postgresql.conf").open("a") as f:
            f.write(
                f"\nport = {p}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{sock}'\n"
                "wal_level = replica\nmax_wal_senders = 5\nsynchronous_commit = on\n"
            )
        run([ctl, "-D", str(primary), "-l", str(sock / "primary.log"), "-w", "start"])
        run([season.pg_bin("pg_basebackup"), "-d",
             f"host=127.0.0.1 port={p} user=postgres application_name=powergrid_replica",
             "-D", str(replica), "-R", "-X", "stream", "-c", "fast"])  # fmt: skip
        with (replica / "postgresql.auto.conf").open("a") as f:
            f.write(f"\nport = {r}\n")
        run([ctl, "-D", str(replica), "-l", str(sock / "replica.log"), "-w", "start"])
        receiver = subprocess.Popen(
            season.as_postgres([season.pg_bin("pg_receivewal"), "-d",
             f"host=127.0.0.1 port={p} user=postgres application_name=powergrid_receivewal",
             "-D", str(stream), "--synchronous", "--no-loop"]),
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"postgres://postgres@127.0.0.1:{p}/postgres"
        admin = psycopg.connect(url, autocommit=True)
        conn = psycopg.connect(url, autocommit=False)
        conn.execute(
            "CREATE TABLE game (id int PRIMARY KEY, seq int, state text);"
            "CREATE TABLE move (id bigserial PRIMARY KEY, game int, seq int, action jsonb,"
            " created timestamptz DEFAULT now());"
            "INSERT INTO game SELECT g, 0, '' FROM generate_series(1, 100) g"
        )
        conn.commit()
        state = "x" * (args.state_kb * 1024)
        action = json.dumps({"type": "build", "cities": ["essen", "duisburg"]})
        both = "(powergrid_replica, powergrid_receivewal)"
        modes = {"async": "", "FIRST 1": f"FIRST 1 {both}", "FIRST 2": f"FIRST 2 {both}"}
        times: dict[str, list[float]] = {mode: [] for mode in modes}
        for _ in range(100):  # both standbys streaming before any round
            if admin.execute("SELECT count(*) FROM pg_stat_replication").fetchone() == (2,):
                break
            time.sleep(0.1)
        for i in range(args.rounds * len(modes)):
            mode = list(modes)[i % len(modes)]
            admin.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{modes[mode]}'")
            admin.execute("SELECT pg_reload_conf()")
            time.sleep(0.3)
            if i < len(modes):  # the rounds do wait for the standbys their mode names
                states = dict(
                    admin.execute(
                        "SELECT application_name, sync_state FROM pg_stat_replication"
                    ).fetchall()
                )
                expected = {
                    "async": {"powergrid_replica": "async", "powergrid_receivewal": "async"},
                    "FIRST 1": {"powergrid_replica": "sync", "powergrid_receivewal": "potential"},
                    "FIRST 2": {"powergrid_replica": "sync", "powergrid_receivewal": "sync"},
                }[mode]
                assert states == expected, (mode, states)
            for k in range(args.per_round):
                g = 1 + (i * args.per_round + k) % 100
                t = time.perf_counter()
                conn.execute(
                    "INSERT INTO move (game, seq, action) VALUES (%s, %s, %s)", (g, k, action)
                )
                conn.execute("UPDATE game SET seq = seq + 1, state = %s WHERE id = %s", (state, g))
                conn.commit()
                times[mode].append(time.perf_counter() - t)
        print(f"{args.rounds} rounds of {args.per_round} moves per mode, alternated")
        for mode, v in times.items():
            s = sorted(v)
            print(
                f"{mode:7} median {statistics.median(s) * 1000:6.2f} ms"
                f"  p95 {s[int(len(s) * 0.95)] * 1000:6.2f} ms"
                f"  mean {statistics.mean(s) * 1000:6.2f} ms  ({len(s)} commits)"
            )
        med = {m: statistics.median(v) * 1000 for m, v in times.items()}
        print(
            f"cost per move (median): FIRST 1 {med['FIRST 1'] - med['async']:+.2f} ms,"
            f" FIRST 2 {med['FIRST 2'] - med['async']:+.2f} ms"
            f" ({med['FIRST 2'] - med['FIRST 1']:+.2f} ms over FIRST 1)"
        )
        conn.close()
        admin.close()
    finally:
        if receiver is not None:
            receiver.terminate()
            receiver.wait(timeout=10)
        for d in (replica, primary):
            if (d / "postmaster.pid").exists():
                subprocess.run(season.as_postgres([ctl, "-D", str(d), "-m", "immediate", "stop"]),
                               capture_output=True)  # fmt: skip
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
