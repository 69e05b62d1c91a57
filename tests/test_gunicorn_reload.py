"""A release's `systemctl reload powergrid-web` serves the new code: the web unit's ExecReload
sends SIGHUP, and with deploy/gunicorn.conf.py the new workers import what is on disk then (the
master never imports the application: ``preload_app = False``). With ``preload_app = True`` the
master held the old code and HUP forked it again, so a release kept running the old version.
Also: gunicorn binds 127.0.0.1 unless told otherwise (the application trusts the X-Forwarded-For
entry nginx appends, so nothing but nginx may reach it).

gunicorn runs here for real with the production settings file, serving a tiny WSGI module."""

from __future__ import annotations

import os
import re
import runpy
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "deploy" / "gunicorn.conf.py"
UNIT = ROOT / "deploy" / "systemd" / "powergrid-web.service"

APP = """
def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"{version}"]
"""


def _conf() -> dict:
    """The settings file's values; the environment it sets (the web's statement limits) is put
    back afterwards, so no later test or subprocess inherits it."""
    with mock.patch.dict(os.environ):
        return runpy.run_path(str(CONF))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        return str(response.read().decode())


def test_the_default_bind_is_the_loopback_address(monkeypatch):
    monkeypatch.delenv("GUNICORN_BIND", raising=False)
    assert _conf()["bind"] == "127.0.0.1:8000"
    monkeypatch.setenv("GUNICORN_BIND", "0.0.0.0:8000")
    assert _conf()["bind"] == "0.0.0.0:8000"


def test_the_master_never_loads_the_application():
    assert _conf()["preload_app"] is False


def test_reload_as_the_unit_sends_it_serves_the_new_code(tmp_path):
    reload_line = re.search(r"^ExecReload=(.*)$", UNIT.read_text(), re.M)
    assert reload_line is not None
    assert reload_line.group(1).split() == ["/bin/kill", "-HUP", "$MAINPID"]

    module = tmp_path / "toyapp.py"
    module.write_text(APP.format(version="old"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="2",
        GUNICORN_ACCESSLOG="",
        PYTHONDONTWRITEBYTECODE="1",  # a .pyc of the same second and size would hide the change
    )
    log = tmp_path / "gunicorn.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "toyapp:application", "-c", str(CONF)],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    failures: list[str] = []
    served: list[str] = []
    stop = threading.Event()

    def keep_asking() -> None:
        while not stop.is_set():
            try:
                served.append(_get(url))
            except Exception as e:
                failures.append(repr(e))
            time.sleep(0.02)

    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                assert _get(url) == "old"
                break
            except OSError:
                assert server.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        asker = threading.Thread(target=keep_asking)
        asker.start()
        time.sleep(0.3)
        module.write_text(APP.format(version="new"))
        server.send_signal(signal.SIGHUP)  # what ExecReload's kill -HUP $MAINPID sends
        deadline = time.monotonic() + 30
        while not served or served[-1] != "new":
            assert time.monotonic() < deadline, (served[-5:], log.read_text())
            time.sleep(0.1)
        time.sleep(0.3)
        stop.set()
        asker.join()
        assert server.poll() is None, log.read_text()
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)
    assert failures == [], (failures, log.read_text())
    assert served.index("new") > 0  # requests went on through the reload
    assert "old" not in served[served.index("new") :]  # once new, never old again


SLOW_APP = """
import os, time
with open({trace!r}, "a") as f:
    f.write(f"start {{os.getpid()}} {{time.monotonic()}}\\n")
try:
    fd = os.open({hang!r}, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
except FileExistsError:
    time.sleep(0.6)  # an application's imports
else:  # the first worker hangs while loading, until the test kills it
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    time.sleep(120)


def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [str(os.getpid()).encode()]


with open({trace!r}, "a") as f:
    f.write(f"end {{os.getpid()}} {{time.monotonic()}}\\n")
"""


def _most_at_once(trace: str, killed: int) -> int:
    """The most workers that were loading the application at the same moment (the killed one
    counts from its start to its death, which is before the next start it let through)."""
    rows = [line.split() for line in trace.splitlines()]
    events = sorted((float(t), 1 if kind == "start" else -1) for kind, _pid, t in rows)
    starts_after_kill = sorted(float(t) for kind, pid, t in rows if kind == "start")
    killed_at = next(t for kind, pid, t in rows if kind == "start" and int(pid) == killed)
    # The killed worker never wrote "end": close it at the latest start that came after it.
    later = [t for t in starts_after_kill if t > float(killed_at)]
    events.append((later[-1] if later else float("inf"), -1))
    events.sort()
    now = most = 0
    for _t, step in events:
        now += step
        most = max(most, now)
    return most


def test_a_starting_host_loads_at_most_boot_at_once_workers_at_a_time(tmp_path):
    """Five workers, two boot slots: never more than two load at once and all five serve; a
    worker killed while loading gives its slot back (the arbiter's replacement boots)."""
    trace, hang = tmp_path / "trace", tmp_path / "hang.pid"
    (tmp_path / "slowapp.py").write_text(SLOW_APP.format(trace=str(trace), hang=str(hang)))
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="5",
        GUNICORN_BOOT_AT_ONCE="2",
        GUNICORN_ACCESSLOG="",
    )
    log = tmp_path / "gunicorn.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "slowapp:application", "-c", str(CONF)],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )

    def ends() -> int:
        return trace.read_text().count("end ") if trace.exists() else 0

    try:
        deadline = time.monotonic() + 60
        while not hang.exists() or not hang.read_text() or ends() < 1:
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        time.sleep(1.5)  # the other slot's workers go on one after the other meanwhile
        killed = int(hang.read_text())
        os.kill(killed, signal.SIGKILL)
        while ends() < 5:
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, (trace.read_text(), log.read_text())
            time.sleep(0.05)
        assert _get(f"http://127.0.0.1:{port}/").isdigit()
    finally:
        server.terminate()
        server.wait(timeout=30)
    text = trace.read_text()
    assert text.count("start ") == 6  # five workers and the one killed while loading
    assert _most_at_once(text, killed) <= 2, text
