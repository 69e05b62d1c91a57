"""Integration fixtures: a private Redis, real Celery workers (subprocesses), an SMTP sink.

Nothing here uses eager mode: tasks go through a real Redis broker to a real ``celery worker``
process that reads the (transactional) PostgreSQL test database and sends to an aiosmtpd sink.

Each test gets its own ``redis-server`` on a free port (``--save ''``), so killing or restarting
it never touches the machine's shared Redis on 6379. Under ``CI=true`` a missing PostgreSQL or
``redis-server`` FAILS these tests; locally they skip.
"""

from __future__ import annotations

import asyncio
import email
import email.parser
import email.policy
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CI = os.environ.get("CI", "").lower() == "true"


def unavailable(what: str) -> None:
    if CI:
        pytest.fail(f"CI=true but {what} is not available", pytrace=False)
    pytest.skip(f"{what} is not available")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float = 20.0, interval: float = 0.05, what: str = "condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


# -- PostgreSQL -------------------------------------------------------------------------------


@pytest.fixture
def pg_db(transactional_db):
    from django.db import connection

    if connection.vendor != "postgresql":
        unavailable("PostgreSQL")
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


# -- Redis --------------------------------------------------------------------------------------


class RedisServer:
    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self.ping, 10, what="redis-server")

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.2).ping())
        except Exception:
            return False

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def redis_server(tmp_path):
    if not shutil.which("redis-server"):
        unavailable("redis-server")
    server = RedisServer(tmp_path)
    server.start()
    use_broker(server.url)
    yield server
    server.kill()


def use_broker(url: str) -> None:
    """Point this process's Celery app (the publisher of on-commit tasks) at ``url``."""
    from config.celery import app

    app.conf.broker_url = url
    app._pool = None  # fresh connections (the old ones may point at a dead server)
    app.amqp._producer_pool = None


# -- SMTP sink ----------------------------------------------------------------------------------


@dataclass
class Received:
    notification: str
    message_id: str
    subject: str
    to: list[str]
    at: float
    raw: bytes
    mail_from: str = ""  # the envelope sender (each email's bounce address)


@dataclass
class SmtpSink:
    port: int = 0
    received: list[Received] = field(default_factory=list)
    # Blocking: while `hold` is set, DATA is answered only after `release` (or never, if the
    # client goes away first: then the message is NOT delivered, as a real server would drop a
    # transaction whose client vanished before the final reply... see OPERATIONS.md for the case
    # where the server accepted it and only our bookkeeping was lost).
    hold: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    in_data: threading.Event = field(default_factory=threading.Event)
    aborted: int = 0
    delay: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.hold.is_set():
            self.in_data.set()
            try:
                while not self.release.is_set():
                    await asyncio.sleep(0.02)
            except asyncio.CancelledError:
                with self.lock:
                    self.aborted += 1
                raise
        if self.delay:
            await asyncio.sleep(self.delay)
        # Headers only: parsing the whole multipart body costs the sink more than the sender
        # spends building it, and a slow sink would be measured instead of the worker.
        msg = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(
            envelope.content
        )
        with self.lock:
            self.received.append(
                Received(
                    notification=str(msg.get("X-PowerGrid-Notification", "")),
                    message_id=str(msg.get("Message-ID", "")),
                    subject=str(msg.get("Subject", "")),
                    to=list(envelope.rcpt_tos),
                    at=time.time(),
                    raw=envelope.content,
                    mail_from=str(envelope.mail_from or ""),
                )
            )
        return "250 OK"

    def by_notification(self) -> dict[str, int]:
        out: dict[str, int] = {}
        with self.lock:
            for r in self.received:
                out[r.notification] = out.get(r.notification, 0) + 1
        return out

    def count(self) -> int:
        with self.lock:
            return len(self.received)


@pytest.fixture
def smtp_sink():
    from aiosmtpd.controller import Controller

    sink = SmtpSink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    sink.port = port
    yield sink
    sink.release.set()
    controller.stop()


# -- Celery workers -----------------------------------------------------------------------------


class Worker:
    def __init__(self, env: dict[str, str], log: Path, name: str) -> None:
        self.env, self.log, self.name = env, log, name
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, *, concurrency: int = 1, pool: str = "solo") -> Worker:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", pool,
             "--concurrency", str(concurrency), "--loglevel", "INFO", "--hostname",
             f"{self.name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        start = self.log.stat().st_size if self.log.exists() else 0
        wait_for(lambda: b" ready." in self.log.read_bytes()[max(0, start - 200000):], 60,
                 0.1, what=f"worker {self.name} ready")  # fmt: skip
        return self

    def kill(self) -> None:
        """SIGKILL the worker (its whole process group: a prefork pool dies with it)."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def worker_env(pg_db, redis_server, smtp_sink, tmp_path):
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": pg_db,
            "CELERY_BROKER_URL": redis_server.url,
            "EMAIL_URL": f"smtp://127.0.0.1:{smtp_sink.port}",
            "NOTIFY_SENDING_LEASE_SECONDS": "3",
            "NOTIFY_RETRY_AFTER_SECONDS": "1",
            "SITE_URL": "https://pg.example",
            "DEBUG": "True",
            "CONN_MAX_AGE": "0",
            "PYTHONUNBUFFERED": "1",
            # A test setting (config/settings.py): the search bot levels spend 5 % of their
            # budget per decision, so a game at the top level plays in seconds.
            "BOT_BUDGET_SCALE": "0.05",
            # The live tests' players answer in seconds without reading: no turn email is held
            # (games/notifications/pace.py; its own tests check the hold).
            "TURN_EMAIL_HOLD_SECONDS": "0",
        }
    )
    return env


@pytest.fixture
def workers(worker_env, tmp_path):
    started: list[Worker] = []

    def start(name: str = "w1", **kw: Any) -> Worker:
        w = Worker(worker_env, tmp_path / f"{name}.log", name).start(**kw)
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()


@pytest.fixture
def settings_for_integration(settings, smtp_sink):
    settings.NOTIFY_SENDING_LEASE_SECONDS = 3
    settings.NOTIFY_RETRY_AFTER_SECONDS = 1
    settings.SITE_URL = "https://pg.example"
    return settings


# -- games --------------------------------------------------------------------------------------


def make_users(n: int, prefix: str = "p") -> list[Any]:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    stamp = f"{time.monotonic_ns() % 10**9}"
    return [
        User.objects.create_user(
            username=f"{prefix}{stamp}{i}", email=f"{prefix}{stamp}{i}@example.com", password="x"
        )
        for i in range(n)
    ]


def start_game(n: int = 3, **options: Any) -> tuple[int, list[Any]]:
    """A started ``n``-player game on Germany, played move by move unless ``sheets=True`` is
    given: these tests follow one turn email per turn (round sheets, the product's default,
    ask every seat at once when a round begins and are tested in tests/games/sheets/)."""
    from games.services.lobby import game_create, game_join

    options = {"sheets": False, **options}

    users = make_users(n)
    game = game_create(creator=users[0], map="germany", max_players=n, options=options)
    for u in users[1:]:
        game_join(game_id=game.pk, user=u)
    game.refresh_from_db()  # the last join started it (auto_start)
    return game.pk, users


def play_default(game_id: int, users: list[Any]) -> Any:
    """The awaited seat plays the engine's default action through move_submit (source web)."""
    import powergrid
    from games.models import Game, Seat
    from games.services.moves import move_submit

    game = Game.objects.get(pk=game_id)
    seat = game.to_act[0]
    user_id = Seat.objects.get(game=game, seat=seat).user_id
    user = next(u for u in users if u.pk == user_id)
    action = powergrid.default_action(powergrid.from_json(game.state_json), seat)
    return move_submit(
        game_id=game_id, user=user, action=action, expected_seq=game.seq, source="web"
    )


def run_script(cmd: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Run a topology script (scripts/prod_smoke, scripts/season) and return what it printed.

    On timeout the script is sent SIGTERM and given a minute to stop what it started (its own
    servers run in sessions of their own, so a SIGKILL of the script alone, what
    ``subprocess.run(timeout=)`` does, left gunicorn, Celery and Redis running after the test),
    then killed; the test then fails with what it printed so far.
    """
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        pytest.fail(f"{cmd[-2:]} timed out after {timeout:.0f} s\n{out[-6000:]}\n{err[-3000:]}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
