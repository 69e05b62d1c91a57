"""The production smoke test's kit (scripts/prod_smoke; scripts/season and scripts/restore_drill
use it through prod_smoke): a failed check and waiting for something, the SMTP sink that keeps
what it received, a process of the deployment started in a session of its own, a browser-like
HTTP client behind the HTTPS proxy, and a player's event stream read on a thread.

A module (``.py``) beside the scripts, so that they import it; it needs no Django set-up."""

from __future__ import annotations

import contextlib
import email
import email.policy
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent


class SmokeFailed(AssertionError):
    pass


def check(ok: Any, what: str) -> None:
    if not ok:
        raise SmokeFailed(what)


def say(text: str) -> None:
    print(text, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(predicate: Any, timeout: float, what: str, interval: float = 0.1) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise SmokeFailed(f"timed out after {timeout:.0f} s waiting for {what}")


def _quiet(fn: Any) -> Any:
    try:
        return fn()
    except Exception:
        return False


# -- services --------------------------------------------------------------------------------


@dataclass
class Received:
    notification: str
    subject: str
    to: list[str]
    message: Any


@dataclass
class Sink:
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.received.append(
                Received(
                    notification=str(msg.get("X-PowerGrid-Notification", "")),
                    subject=str(msg.get("Subject", "")),
                    to=list(envelope.rcpt_tos),
                    message=msg,
                )
            )
        return "250 OK"

    def snapshot(self) -> list[Received]:
        with self.lock:
            return list(self.received)


@dataclass
class Proc:
    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Proc:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole process group (a prefork pool dies with its parent)."""
        if self.alive():
            assert self.proc is not None
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.alive():
            assert self.proc is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, n: int = 30) -> str:
        if not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])


class Client:
    """A browser-like session against gunicorn, as if behind the HTTPS proxy: the proxy is played
    by a header, and the site's Secure cookies are sent although this hop is plain HTTP (requests
    would leave them out)."""

    def __init__(self, base: str, site: str) -> None:
        self.base, self.site = base, site
        self.s = requests.Session()
        self.s.headers.update({"X-Forwarded-Proto": "https", "Accept-Language": "en"})
        self.token: str | None = None

    def request(self, method: str, path: str, **kw: Any) -> requests.Response:
        headers = kw.pop("headers", {})
        if method != "GET":
            headers.setdefault("Origin", self.site)
            headers.setdefault("Referer", self.site + path)
        if self.token:
            headers.setdefault("Authorization", f"Token {self.token}")
        elif self.s.cookies:
            headers["Cookie"] = "; ".join(f"{c.name}={c.value}" for c in self.s.cookies)
        kw.setdefault("allow_redirects", False)
        kw.setdefault("timeout", 30)
        return self.s.request(method, self.base + path, headers=headers, **kw)

    def get(self, path: str, **kw: Any) -> requests.Response:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> requests.Response:
        return self.request("POST", path, **kw)

    def form(self, path: str, data: dict[str, str]) -> requests.Response:
        """GET the page, POST its form with the CSRF token, as a browser would."""
        page = self.get(path)
        check(page.status_code == 200, f"GET {path}: {page.status_code}")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        check(token, f"{path} has a CSRF token")
        assert token is not None
        return self.post(path, data={"csrfmiddlewaretoken": token.group(1), **data})


class StreamListener:
    """One player's event stream (``GET /api/v1/stream/`` on the stream server), read on a
    thread: when each ``seq`` of one game was told, in the order told."""

    def __init__(self, base: str, token: str, game_id: int) -> None:
        self.game_id = game_id
        self.told: list[tuple[int, float]] = []  # (seq, time.monotonic() it arrived)
        self.sheet_rounds: list[int] = []  # the rounds a sheet_asked event named
        self.response = requests.get(
            base + "/api/v1/stream/",
            headers={"Authorization": f"Token {token}", "X-Forwarded-Proto": "https"},
            stream=True,
            timeout=(5, 120),
        )
        check(self.response.status_code == 200, f"stream: {self.response.status_code}")
        kind = self.response.headers.get("Content-Type", "")
        check(kind.startswith("text/event-stream"), f"stream Content-Type {kind!r}")
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        with contextlib.suppress(Exception):  # ends when the test closes the response
            for chunk in self.response.iter_content(chunk_size=None):
                buffer += chunk
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    for line in event.decode().splitlines():
                        if line.startswith("data: "):
                            body = json.loads(line[6:])
                            game = body.get("game", {})
                            if game.get("id") != self.game_id:
                                continue
                            if body.get("event") == "game":
                                self.told.append((game["seq"], time.monotonic()))
                            elif body.get("event") == "sheet_asked":  # a sheet round began
                                self.sheet_rounds.append(body["sheet"]["round"])

    def seqs(self) -> list[int]:
        return [seq for seq, _t in list(self.told)]

    def close(self) -> None:
        self.response.close()
