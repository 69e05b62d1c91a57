"""`make run`'s devserver: a busy port is said plainly with a non-zero exit (no banner), and
stopping it stops every process it started (runserver's autoreloader child included)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("DATABASE_URL", None)  # the embedded default, as make run
    return env


def _on_a_busy_port(*flags: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """``devserver`` asked to serve on a port another socket holds."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "manage.py", "devserver", f"127.0.0.1:{port}", *flags],
            cwd=ROOT,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    return out, port


def test_a_busy_port_fails_clearly_without_the_banner():
    out, port = _on_a_busy_port("--no-worker")
    assert out.returncode != 0
    assert "already in use" in out.stderr
    assert f"PORT={port + 1} make run" in out.stderr
    assert "is running at" not in out.stdout


@pytest.mark.parametrize("host", ["0.0.0.0", "[::]"])
def test_with_debug_it_refuses_to_listen_beyond_this_machine(host):
    """The development mailbox shows every user's email to whoever reaches the server: with
    DEBUG (the embedded default) the development server binds the loopback only."""
    port = _free_port()
    out = subprocess.run(
        [sys.executable, "manage.py", "devserver", f"{host}:{port}", "--no-worker", "--seed"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    assert "this machine only" in out.stderr
    assert "is running at" not in out.stdout


@pytest.mark.parametrize("host", ["127.0.0.1", "[::1]", "localhost", "127.0.0.2"])
def test_loopback_addresses_are_this_machine(host):
    from games.management.commands.devserver import loopback

    assert loopback(host)


def test_on_a_busy_port_the_demo_data_is_not_written_either():
    """`make run` seeds the demo only once the port is known to be free."""
    out, _port = _on_a_busy_port("--seed")
    assert out.returncode != 0
    assert "already in use" in out.stderr
    assert "Demo logins" not in out.stdout


@pytest.mark.parametrize(
    ("sig", "started_ignoring_sigint"),
    [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["ctrl-c", "ctrl-c-to-a-background-job-of-a-script", "kill"],
)
def test_stopping_it_stops_the_web_server_and_frees_the_port(sig, started_ignoring_sigint):
    """A shell without job control (a script's `make run &`, a CI runner) starts background
    jobs with SIGINT ignored, and Python keeps an inherited "ignore": the devserver sets its own
    handler, so SIGINT stops it there too (it was ignored, and the test timed out in CI)."""
    port = _free_port()
    argv = [sys.executable, "manage.py", "devserver", f"127.0.0.1:{port}", "--no-worker"]
    if started_ignoring_sigint:
        argv = ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *argv]
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # Read everything it and its children print, all along: a pipe left unread after the banner
    # fills up, and a process writing to it (runserver's child shares it) blocks and never exits.
    out: list[str] = []
    banner = threading.Event()

    def read() -> None:
        for line in proc.stdout or ():
            out.append(line)
            if "is running at" in line:
                banner.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert banner.wait(90) or proc.poll() is not None, "".join(out)
        assert f"Power Grid is running at http://127.0.0.1:{port}/" in "".join(out)
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        proc.send_signal(sig)  # Ctrl-C, or a service manager's stop
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 60 s after {sig.name}; it printed:\n" + "".join(out))
    finally:
        if proc.poll() is None:  # let it stop its children (their own process groups) first
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        reader.join(10)
    assert "Stopped." in "".join(out)
    # Nothing of it is left listening: the port can be bound again (as a server binds it: our
    # probe's closed connection may linger in TIME_WAIT, which SO_REUSEADDR allows) and a
    # connection is refused.
    time.sleep(0.5)
    with socket.socket() as again:
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))
        again.listen()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_the_readme_shows_the_banner_make_run_prints():
    """The README's sample is the real banner, line for line (at the default port)."""
    from games.management.commands.devserver import banner

    readme = (ROOT / "README.md").read_text()
    block = readme.split("Once the server answers it prints:\n\n```\n", 1)[1].split("```", 1)[0]
    assert block.splitlines() == banner("http://127.0.0.1:8000")


def test_periodic_task_lines_count_as_debug_in_development(settings):
    """The worker's lines about its periodic tasks are dropped below DEBUG, other tasks' kept:
    they scrolled `make run`'s banner out of view every 30 seconds."""
    import logging

    from config.logfilters import PeriodicAtDebug

    def record(msg: str, level: int = logging.INFO) -> logging.LogRecord:
        return logging.LogRecord("celery.beat", level, __file__, 1, msg, None, None)

    f = PeriodicAtDebug()
    root = logging.getLogger()
    old = root.level
    try:
        root.setLevel(logging.INFO)
        assert not f.filter(record("Scheduler: Sending due task deadlines-sweep (x)"))
        assert not f.filter(record("Task games.tasks.outbox_sweep[1] received"))
        assert f.filter(record("Task games.tasks.game_play_due[1] received"))
        assert f.filter(record("Task games.tasks.outbox_sweep[1] raised", logging.ERROR))
        root.setLevel(logging.DEBUG)
        assert f.filter(record("Scheduler: Sending due task deadlines-sweep (x)"))
    finally:
        root.setLevel(old)


def _trace_filters(**env: str) -> str:
    code = (
        "import django, logging; django.setup();"
        "print([type(f).__name__ for f in logging.getLogger('celery.app.trace').filters])"
    )
    environ = {k: v for k, v in _env().items() if k != "QUIET_PERIODIC_TASK_LOGS"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**environ, **env},
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_only_the_devservers_worker_hides_periodic_task_lines():
    """Any other worker logs every task, DEBUG or not: keyed on DEBUG, the filter also hid the
    deadline sweeps (and the helper sweeps a burst starts) from the live tests' workers, whose
    burst test then waited for lines that never came."""
    assert _trace_filters(DEBUG="True") == "[]"
    assert _trace_filters(DEBUG="True", QUIET_PERIODIC_TASK_LOGS="True") == "['PeriodicAtDebug']"
    devserver = (ROOT / "games/management/commands/devserver.py").read_text()
    assert 'env.setdefault("QUIET_PERIODIC_TASK_LOGS", "True")' in devserver


def test_the_banner_comes_after_the_worker_is_ready():
    """`make run` prints its banner once the server answers AND the worker said it is ready,
    and the worker's periodic lines do not follow it (it stays the last thing on screen)."""
    port = _free_port()
    env = _env()
    proc = subprocess.Popen(
        [sys.executable, "-u", "manage.py", "devserver", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            lines.append(raw.decode(errors="replace"))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        end = time.monotonic() + 90
        while time.monotonic() < end and not any("Press Ctrl-C" in x for x in lines):
            time.sleep(0.2)
        text = "".join(lines)
        assert "Press Ctrl-C to stop." in text, text[-3000:]
        assert text.index(" ready.") < text.index("is running at"), text[-3000:]
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (["manage.py", "runserver"], {}, "0"),  # a thread a request: nothing kept
        (["manage.py", "runserver"], {"CONN_MAX_AGE": "60"}, "60"),  # as asked
        (["gunicorn"], {}, "600"),  # production's workers keep theirs
    ],
)
def test_runserver_keeps_no_database_connection_unless_asked(argv, env, expected):
    """runserver serves each request on a thread of its own: a connection kept per thread
    stayed open after it, until a shared PostgreSQL had no more to give (an outsider's run)."""
    code = (
        f"import sys; sys.argv = {argv!r}; import django; django.setup(); "
        "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    )
    environment = {k: v for k, v in os.environ.items() if k != "CONN_MAX_AGE"}
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused",
        **env,
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected
