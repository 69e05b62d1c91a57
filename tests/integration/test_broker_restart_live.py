"""Every kind of Celery process rides through a broker restart without exiting.

The processes are started as the shipped systemd units start them (``deploy/systemd/``: the
all-queue worker, one worker per queue, and beat), on a private Redis. Each worker holds a
task waiting for its ETA when Redis is killed and started again, empty, on the same port: the
case that made Celery 5.7 stop the worker with "Unrecoverable error" (``config/broker.py``).
After the restart the worker must still run, and run the next task of its queue.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from livehelpers import ROOT, use_broker, wait_for

from games import queue

pytestmark = pytest.mark.integration

UNITS = ROOT / "deploy" / "systemd"

# The task each worker is asked to run, by the queue it serves (games/queue.py).
TASK_FOR_QUEUE = {
    queue.EMAIL: queue.OUTBOX_SWEEP,
    queue.MOVES: queue.DEADLINES_SWEEP,
    queue.HOOKS: queue.WEBHOOKS_SWEEP,
}


def unit_command(unit: str, instance: str) -> list[str]:
    """The unit's ExecStart, as systemd would run it, with this checkout's Python."""
    text = (UNITS / unit).read_text()
    line = next(x for x in text.splitlines() if x.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[0].endswith("/celery"), argv
    argv = [sys.executable, "-m", "celery", *argv[1:]]
    # systemd specifiers: %i the instance, %% a literal %, and celery's own %h stays.
    return [a.replace("%%", "\0").replace("%i", instance).replace("\0", "%") for a in argv]


class Proc:
    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def succeeded(self, task: str) -> int:
        return len(re.findall(rf"Task {re.escape(task)}\[[^\]]+\] succeeded", self.text()))

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


def _send(task: str, *, eta: datetime | None = None) -> bool:
    from config.celery import app

    try:
        app.send_task(task, queue=queue.ROUTES[task], eta=eta, retry=False)
        return True
    except Exception:
        return False


def _restart(redis_server) -> None:
    redis_server.kill()  # SIGKILL: the connection breaks, nothing is saved (--save '')
    time.sleep(1.0)
    redis_server.start()
    use_broker(redis_server.url)


@pytest.mark.parametrize(
    ("unit", "instance", "queues"),
    [
        ("powergrid-worker@.service", "1", [queue.EMAIL, queue.MOVES, queue.HOOKS]),
        ("powergrid-queue@.service", queue.EMAIL, [queue.EMAIL]),
        ("powergrid-queue@.service", queue.MOVES, [queue.MOVES]),
        ("powergrid-queue@.service", queue.HOOKS, [queue.HOOKS]),
    ],
)
def test_worker_runs_the_next_task_after_a_broker_restart(
    unit, instance, queues, pg_db, redis_server, worker_env, tmp_path
):
    worker = Proc(unit_command(unit, instance), worker_env, tmp_path / "worker.log")
    try:
        wait_for(lambda: " ready." in worker.text(), 90, 0.2, what="worker ready")
        tasks = [TASK_FOR_QUEUE[q] for q in queues]
        for task in tasks:
            assert _send(task)
            # Held by the worker, unacknowledged, when the broker goes away.
            assert _send(task, eta=datetime.now(UTC) + timedelta(minutes=5))
        wait_for(lambda: all(worker.succeeded(t) >= 1 for t in tasks), 60, 0.2,
                 what="the first tasks")  # fmt: skip
        before = {t: worker.succeeded(t) for t in tasks}

        _restart(redis_server)

        for task in tasks:
            wait_for(lambda t=task: _send(t), 30, 0.5, what="publish after the restart")
        wait_for(lambda: all(worker.succeeded(t) > before[t] for t in tasks) or not worker.alive(),
                 60, 0.2, what="the tasks after the restart")  # fmt: skip
        log = worker.text()
        assert worker.alive(), "the worker exited:\n" + log[-3000:]
        assert "Unrecoverable error" not in log, log[-3000:]
        assert "Connection to broker lost" in log  # the restart did reach it
        assert all(worker.succeeded(t) > before[t] for t in tasks)
    finally:
        worker.stop()


def test_beat_publishes_again_after_a_broker_restart(pg_db, redis_server, worker_env, tmp_path):
    env = dict(worker_env, SWEEP_EVERY_SECONDS="1")  # every sweep each second
    argv = unit_command("powergrid-beat.service", "")
    argv[argv.index("--schedule") + 1] = str(tmp_path / "celerybeat-schedule")
    beat = Proc(argv, env, tmp_path / "beat.log")
    worker = Proc(unit_command("powergrid-worker@.service", "1"), env, tmp_path / "worker.log")
    try:
        wait_for(lambda: worker.succeeded(queue.DEADLINES_SWEEP) >= 1, 90, 0.2,
                 what="beat's sweeps running")  # fmt: skip
        _restart(redis_server)
        after = worker.succeeded(queue.DEADLINES_SWEEP)
        try:
            wait_for(lambda: worker.succeeded(queue.DEADLINES_SWEEP) > after + 2, 60, 0.2,
                     what="beat's sweeps after the restart")  # fmt: skip
        except AssertionError as exc:  # which side stopped: beat publishing, or the worker
            raise AssertionError(
                f"{exc}\n--- beat ---\n{beat.text()[-3000:]}"
                f"\n--- worker ---\n{worker.text()[-3000:]}"
            ) from None
        assert beat.alive(), beat.text()[-3000:]
        assert worker.alive(), worker.text()[-3000:]
    finally:
        beat.stop()
        worker.stop()


@pytest.mark.parametrize("transport", ["redis", "config.broker:Transport"])
def test_an_ack_on_a_channel_whose_connection_broke_leaves_the_message_for_redelivery(
    transport, redis_server
):
    """The state a broken connection leaves its channel in once Celery collected it: the
    transport's connection details gone, the channel's pool dropped. kombu's own channel raises
    AttributeError on the late ``acks_late`` acknowledgement of a task that finished after the
    reconnect (the worker stopped: "Unrecoverable error", seen once in the beat test above);
    ours drops the acknowledgement, and the message stays in Redis's unacknowledged index, from
    which Redis hands it out again after its visibility timeout."""
    import redis
    from kombu import Connection, Exchange, Producer, Queue

    conn = Connection(redis_server.url, transport=transport)
    channel = conn.channel()
    q = Queue("acks", Exchange("acks"), "acks", channel=channel)
    q.declare()
    Producer(channel).publish({"task": 1}, exchange="acks", routing_key="acks")
    message = q.get(no_ack=False)
    assert message is not None
    transport_object = channel.connection
    client_before = transport_object.client
    transport_object.client, channel._pool = None, None  # collected, as Celery leaves it
    channel.__dict__.pop("client", None)
    try:
        if transport == "redis":
            with pytest.raises(AttributeError, match="hostname"):
                message.ack()
        else:
            message.ack()
    finally:
        transport_object.client = client_before  # let kombu's exit hooks close it cleanly
    unacked = redis.Redis.from_url(redis_server.url).hexists("unacked", message.delivery_tag)
    assert unacked, "the message left Redis's unacknowledged index: it would never run again"
    conn.release()  # closed while its Redis runs (kombu's exit hook would find it gone)
