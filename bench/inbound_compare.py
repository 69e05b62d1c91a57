"""Process per message (``manage.py receive_mail``, the MTA's pipe) against the inbound mail
service (``manage.py lmtp_server`` + a Celery worker), the same kind of messages, alternated round
by round: CPU per message and MTA hand-off -> move applied, p50/p95 (``bench/inbound_bench.py
--compare`` runs it).

- pipe: each reply is a ``receive_mail`` process (its CPU: the children's rusage); hand-off is
  the process's start, the move is applied when it exits 0.
- lmtp: replies are handed in over LMTP at a steady ``rate`` per second by a few sender threads
  (one open connection each, as Postfix's connection cache keeps them); hand-off is the 250 after
  DATA (the MTA forgets the message then), the move is applied when the game's seq moves (a
  watcher polls every 10 ms). The service's CPU is read from /proc for its process over the
  round, divided by the messages.

Where a message's time goes (``lmtp_round``'s split, printed per round): hand-off -> the move's
row written by the worker (``games_move.created_at``: the task waited in the queue, then parsed
the message; the parse is a few ms), the move's row -> seen committed; and the worker's own log
(``--logfile``, INFO): how long each ``inbound_process`` task ran, and how much worker time the
other tasks (the emails each move sends) took in the same window.
"""

from __future__ import annotations

import os
import re
import resource
import smtplib
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

#: Celery's line for a finished task: its name and how long it ran.
_SUCCEEDED = re.compile(r"Task ([\w.]+)\[[^\]]+\] succeeded in ([0-9.]+)s")


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


class Watcher:
    """When each game's seq first passed a value (polled every 10 ms)."""

    def __init__(self, db_url: str) -> None:
        self.conn = psycopg.connect(db_url, autocommit=True)
        # game -> (seq to pass, handed at: monotonic, wall clock)
        self.want: dict[int, tuple[int, float, float]] = {}
        self.done: list[tuple[int, int, float, float]] = []  # (game, seq, handed wall, latency)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def expect(self, gid: int, seq: int, at: float, wall: float) -> None:
        with self.lock:
            self.want[gid] = (seq, at, wall)

    def run(self) -> None:
        while not self.stop.wait(0.01):
            with self.lock:
                ids = list(self.want)
            if not ids:
                continue
            rows = self.conn.execute(
                "SELECT id, seq FROM games_game WHERE id = ANY(%s)", (ids,)
            ).fetchall()
            now = time.monotonic()
            with self.lock:
                for gid, seq in rows:
                    w = self.want.get(gid)
                    if w and seq > w[0]:
                        self.done.append((gid, w[0], w[2], now - w[1]))
                        del self.want[gid]

    def wait_empty(self, timeout: float) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if not self.want:
                    return 0
            time.sleep(0.02)
        with self.lock:
            left = len(self.want)
            self.want.clear()
            return left


def pipe_round(
    messages: list[tuple[int, int, str, bytes]], env: dict[str, str], root: Path
) -> tuple[list[float], float]:
    """Latencies and CPU seconds per message of ``receive_mail`` processes, one after another."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    lat = []
    for _gid, _seq, to, raw in messages:
        t = time.monotonic()
        out = subprocess.run(
            [sys.executable, "manage.py", "receive_mail", "--recipient", to],
            cwd=root, env=env, input=raw, capture_output=True, timeout=120,
        )  # fmt: skip
        if out.returncode == 0:
            lat.append(time.monotonic() - t)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return lat, cpu / max(1, len(messages))


def lmtp_round(
    messages: list[tuple[int, int, str, bytes]],
    port: int,
    service_pid: int,
    watcher: Watcher,
    rate: float,
    senders: int = 4,
) -> tuple[list[float], float, int]:
    """Latencies (hand-off -> move), the service's CPU seconds per message, messages not moved."""
    cpu0 = _cpu_of(service_pid)
    watcher.done.clear()
    start = time.monotonic()
    slots = [start + i / rate for i in range(len(messages))]
    lock = threading.Lock()
    queue = list(zip(slots, messages, strict=True))

    def sender() -> None:
        client = smtplib.LMTP("127.0.0.1", port, timeout=30)
        client.ehlo_or_helo_if_needed()
        while True:
            with lock:
                if not queue:
                    break
                at, (gid, seq, to, raw) = queue.pop(0)
            delay = at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            sender_addr = raw.split(b"From: <", 1)[1].split(b">", 1)[0].decode()
            client.sendmail(sender_addr, [to], raw)
            watcher.expect(gid, seq, time.monotonic(), time.time())
        client.quit()

    threads = [threading.Thread(target=sender) for _ in range(senders)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    left = watcher.wait_empty(60)
    cpu = _cpu_of(service_pid) - cpu0
    return [d[3] for d in watcher.done], cpu / max(1, len(messages)), left


def split(
    db_url: str, done: list[tuple[int, int, float, float]]
) -> tuple[list[float], list[float]]:
    """Per message: hand-off -> the move's row written (queue wait + parse), and the move's row
    -> seen committed (the rest of the task's transaction, the commit, the watcher's poll)."""
    waits, rest = [], []
    with psycopg.connect(db_url, autocommit=True) as conn:
        for gid, seq, wall, latency in done:
            row = conn.execute(
                "SELECT extract(epoch FROM created_at) FROM games_move WHERE game_id = %s "
                "AND seq > %s AND source = 'email' ORDER BY seq LIMIT 1",
                (gid, seq),
            ).fetchone()
            if row is None:
                continue
            written = float(row[0]) - wall
            waits.append(written)
            rest.append(latency - written)
    return waits, rest


def worker_log(path: Path, offset: int) -> tuple[dict[str, list[float]], int]:
    """The run time of each task the worker finished since ``offset``, by task name."""
    if not path.exists():
        return {}, offset
    with path.open("rb") as f:
        f.seek(offset)
        text = f.read().decode("utf-8", "replace")
        end = f.tell()
    out: dict[str, list[float]] = {}
    for name, took in _SUCCEEDED.findall(text):
        out.setdefault(name.rsplit(".", 1)[-1], []).append(float(took))
    return out, end


def split_report(
    waits: list[float], rest: list[float], tasks: dict[str, list[float]], seconds: float
) -> str:
    """Where the round's time went (see the module's docstring)."""
    ms = 1000
    out = []
    if waits:
        out.append(
            f"      hand-off -> move row written (queue wait + parse) p50 "
            f"{statistics.median(waits) * ms:.0f} ms, p95 {_pct(waits, 0.95) * ms:.0f} ms; "
            f"move row -> seen committed p50 {statistics.median(rest) * ms:.0f} ms, "
            f"p95 {_pct(rest, 0.95) * ms:.0f} ms"
        )
    if tasks:
        inbound = tasks.get("inbound_process", [])
        if inbound:
            out.append(
                f"      worker: inbound_process ran p50 {statistics.median(inbound) * ms:.0f} ms, "
                f"p95 {_pct(inbound, 0.95) * ms:.0f} ms"
            )
        busy = ", ".join(f"{name} {len(v)} x {sum(v):.1f} s" for name, v in sorted(tasks.items()))
        out.append(f"      worker busy over the round's {seconds:.1f} s: {busy}")
    return "\n".join(out)


def report(name: str, lat: list[float], cpu: float, extra: str = "") -> str:
    if not lat:
        return f"{name}: no move applied {extra}"
    return (
        f"{name:5}: {len(lat)} moves, CPU {cpu * 1000:.0f} ms/message, hand-off -> move "
        f"p50 {statistics.median(lat) * 1000:.0f} ms, p95 {_pct(lat, 0.95) * 1000:.0f} ms {extra}"
    )


def run_compare(
    make: Callable[[], list[tuple[int, int, str, bytes]]],
    *,
    env: dict[str, str],
    db_url: str,
    root: Path,
    port: int,
    rounds: int,
    rate: float,
    pipe_per_round: int,
    worker_logs: list[Path] | None = None,
) -> None:
    service = subprocess.Popen(
        [sys.executable, "manage.py", "lmtp_server", "--host", "127.0.0.1", "--port", str(port)],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    watcher = Watcher(db_url)
    figures: dict[str, Any] = {"pipe": ([], []), "lmtp": ([], [])}
    logs = worker_logs or []
    offsets: dict[Path, int] = {}
    lost = 0
    try:
        for _ in range(100):
            try:
                smtplib.LMTP("127.0.0.1", port, timeout=2).quit()
                break
            except OSError:
                time.sleep(0.2)
        for r in range(rounds):
            batch = make()
            pipe_lat, pipe_cpu = pipe_round(batch[:pipe_per_round], env, root)
            figures["pipe"][0].extend(pipe_lat)
            figures["pipe"][1].append(pipe_cpu)
            batch = make()
            for path in logs:
                worker_log(path, offsets.get(path, 0))  # the pipe round's tasks: not these
                offsets[path] = path.stat().st_size if path.exists() else 0
            t0 = time.monotonic()
            lat, cpu, left = lmtp_round(batch, port, service.pid, watcher, rate)
            took = time.monotonic() - t0
            done = list(watcher.done)
            tasks: dict[str, list[float]] = {}
            for path in logs:
                got, offsets[path] = worker_log(path, offsets[path])
                for name, v in got.items():
                    tasks.setdefault(name, []).extend(v)
            lost += left
            figures["lmtp"][0].extend(lat)
            figures["lmtp"][1].append(cpu)
            print(report(f"round {r + 1} pipe", pipe_lat, pipe_cpu), flush=True)
            print(report(f"round {r + 1} lmtp", lat, cpu, f"({len(batch)} at {rate:.0f}/s)"))
            print(split_report(*split(db_url, done), tasks, took), flush=True)
        pipe_all, lmtp_all = figures["pipe"], figures["lmtp"]
        print("--- all rounds ---")
        print(report("pipe", pipe_all[0], statistics.mean(pipe_all[1])))
        print(report("lmtp", lmtp_all[0], statistics.mean(lmtp_all[1]), f"not moved: {lost}"))
    finally:
        watcher.stop.set()
        service.terminate()
        service.wait(10)
