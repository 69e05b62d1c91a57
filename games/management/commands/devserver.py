"""`make run`: the development server plus a Celery worker with beat, stopped together on Ctrl-C.

Each child runs in a process group of its own, and stopping sends the signal to the whole group:
runserver's autoreloader serves from a child process of its own, which a signal to the parent
alone would leave running (and holding the port). A port already in use is said plainly, with a
non-zero exit, before anything starts (``--seed``'s demo data included: a second `make run` on a
busy port writes nothing); the banner is printed only once the server answers.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.commands.seed_demo import DEMO_USERS, demo_password


class Command(BaseCommand):
    help = "Runs runserver and a Celery worker with beat (-B) on the configured broker."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--no-worker", action="store_true", help="Only the web server.")
        parser.add_argument(
            "--seed", action="store_true", help="Run seed_demo first (once the port is free)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        addrport = options["addrport"]
        host, _, port_text = addrport.rpartition(":")
        host = host or "127.0.0.1"
        try:
            port = int(port_text)
        except ValueError:
            raise CommandError(f"{addrport!r} is not host:port (e.g. 127.0.0.1:8000)") from None
        if settings.DEBUG and not loopback(host):
            # With DEBUG the development mailbox (/dev/mailbox/) shows every user's emails, their
            # login links included, to whoever reaches the server: this machine only.
            raise CommandError(
                f"With DEBUG on, the development server listens on this machine only "
                f"(127.0.0.1 or [::1]), not {host}: its mailbox page shows every user's emails "
                "to whoever can reach it. Production runs gunicorn with DEBUG=false (deploy/)."
            )
        if not port_free(host, port):
            raise CommandError(
                f"Port {port} on {host} is already in use (another `make run`?). Stop it, or "
                f"choose another port: PORT={port + 1} make run"
            )
        if options["seed"]:
            call_command("seed_demo", stdout=self.stdout, stderr=self.stderr)
        base = f"http://{addrport}"
        procs: list[subprocess.Popen[bytes]] = []
        # Ctrl-C (SIGINT) and a service manager's or `kill`'s SIGTERM only ask to stop; the loops
        # below look at the request. Our own handler, because a shell without job control (a
        # script's `make run &`, a CI runner) starts background jobs with SIGINT ignored and
        # Python keeps that: Ctrl-C did nothing there (CI: "still running 60 s after Ctrl-C").
        # A flag, not KeyboardInterrupt: an exception raised at any bytecode could also land
        # inside Popen.poll() while it holds its lock, which a later wait() waits for forever.
        STOP.clear()
        signal.signal(signal.SIGINT, _request_stop)
        signal.signal(signal.SIGTERM, _request_stop)
        # Everything from the first child on is inside try/finally: a stop asked at any moment
        # (even while the banner is being printed) stops every child, never leaves one holding
        # the port.
        try:
            self._start_and_wait(procs, addrport, host, port, base, options)
        finally:
            stop(procs)
        self.stdout.write("Stopped.")

    def _start_and_wait(
        self,
        procs: list[subprocess.Popen[bytes]],
        addrport: str,
        host: str,
        port: int,
        base: str,
        options: dict[str, Any],
    ) -> None:
        """Start the children (appended to ``procs`` as they start), print the banner once the
        server answers, and return when one of them exits."""
        env = dict(os.environ)
        # This terminal shows the banner: the worker's periodic-task lines count as DEBUG here.
        env.setdefault("QUIET_PERIODIC_TASK_LOGS", "True")
        manage = str(settings.BASE_DIR / "manage.py")
        worker_ready = threading.Event()
        if not options["no_worker"]:
            worker = subprocess.Popen(
                [
                    sys.executable, "-m", "celery", "-A", "config", "worker", "-B",
                    "--loglevel", "INFO", "--concurrency", "1",
                    "--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME,
                ],
                env=env,
                cwd=settings.BASE_DIR,
                start_new_session=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
            procs.append(worker)
            threading.Thread(
                target=_relay, args=(worker, worker_ready), daemon=True, name="worker-output"
            ).start()
        else:
            worker_ready.set()
        web = subprocess.Popen(
            [sys.executable, manage, "runserver", addrport], env=env, start_new_session=True
        )
        procs.append(web)
        if not wait_until_serving(host, port, web):
            if STOP.requested:
                return
            raise CommandError(f"The web server did not start on {addrport}: see its output above.")
        # The banner comes last: after the worker's own start-up lines (its periodic tasks
        # then log at DEBUG only: config/logfilters.py), so it stays in view.
        end = time.monotonic() + WORKER_WAIT
        while not worker_ready.is_set() and time.monotonic() < end and not STOP.requested:
            if any(p.poll() is not None for p in procs):
                break
            worker_ready.wait(0.2)
        self.stdout.write("")
        lines = banner(base, worker=not options["no_worker"])
        self.stdout.write(self.style.SUCCESS(lines[0]))
        for line in lines[1:]:
            self.stdout.write(line)
        while not STOP.requested and all(p.poll() is None for p in procs):
            time.sleep(0.2)


#: Seconds the banner waits for the worker to say it is ready (it is printed anyway after).
WORKER_WAIT = 30.0


def banner(base: str, *, worker: bool = True) -> list[str]:
    """What `make run` prints once it serves (the README shows it: tests compare the two)."""
    lines = [f"Power Grid is running at {base}/", "  Logins (username / password):"]
    lines += [f"    {u:6} / {demo_password(u)}" for u, _display, _lang in DEMO_USERS]
    lines += [
        f"  Mailbox (emails sent):  {base}/dev/mailbox/",
        f"  API docs:               {base}/api/docs/",
        f"  Admin:                  {base}/admin/",
        "  Celery worker with beat: " + ("on" if worker else "off"),
        "Press Ctrl-C to stop.",
    ]
    return lines


def _relay(worker: subprocess.Popen[bytes], ready: threading.Event) -> None:
    """Pass the worker's output on to ours, noting when it says it is ready."""
    assert worker.stdout is not None
    out = sys.stdout.buffer
    for line in worker.stdout:
        with contextlib.suppress(OSError, ValueError):
            out.write(line)
            out.flush()
        if b" ready." in line:
            ready.set()
    ready.set()


class _StopRequest:
    """Set by SIGINT or SIGTERM; read by the loops (a flag, never an exception mid-call)."""

    requested = False

    def clear(self) -> None:
        self.requested = False


STOP = _StopRequest()


def _request_stop(signum: int, frame: Any) -> None:
    STOP.requested = True


def loopback(host: str) -> bool:
    """Whether ``host`` is an address of this machine's loopback (or "localhost")."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def port_free(host: str, port: int) -> bool:
    """Whether nothing listens on ``host:port`` (so runserver can bind it). SO_REUSEADDR as
    runserver binds: connections of a server just stopped (TIME_WAIT) do not count as busy."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host.strip("[]"), port))
        except OSError:
            return False
    return True


def wait_until_serving(
    host: str, port: int, web: subprocess.Popen[bytes], seconds: float = 60
) -> bool:
    """Wait for the server to accept connections; False if it exits, never does, or a stop is
    asked meanwhile."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not STOP.requested:
        if web.poll() is not None:
            return False
        try:
            with socket.create_connection((host.strip("[]"), port), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Ctrl-C to each child's whole process group, then wait (killing the group after 10 s).

    A second Ctrl-C while stopping is ignored: it would otherwise cut the clean-up short."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for p in procs:
        if p.poll() is None:
            _signal_group(p, signal.SIGINT)
    deadline = time.time() + 10
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            _signal_group(p, signal.SIGKILL)
            p.wait()
        _signal_group(p, signal.SIGKILL)  # any grandchild left behind (the autoreloader's)
    for p in procs:
        _wait_group_gone(p.pid)


def _wait_group_gone(pgid: int, seconds: float = 5) -> None:
    """Wait until no process of the group is alive, so the port is free when we return.

    A signal is delivered asynchronously: without this wait the autoreloader's server child
    could still hold the port for a moment after ``make run`` has said "Stopped."."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return
        if _only_zombies(pgid):
            return
        time.sleep(0.05)


def _only_zombies(pgid: int) -> bool:
    """Whether every process left in the group has exited (a zombie holds no socket; in a
    container whose init does not reap, it may never disappear)."""
    proc = "/proc"
    if not os.path.isdir(proc):
        return False
    for pid in os.listdir(proc):
        if not pid.isdigit():
            continue
        try:
            with open(f"{proc}/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # fields[0] is the state, fields[2] the process group
        if int(fields[2]) == pgid and fields[0] != "Z":
            return False
    return True


def _signal_group(p: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(p.pid, sig)
