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
