"""The Redis broker's transport, one fault of Celery 5.7 closed: workers outlive their broker.

When a worker's broker connection breaks (Redis restarted, a network cut), Celery 5.7 first
*collects* the connection (which drops the transport's connection details) and then *closes* it.
Closing a channel that still holds unacknowledged messages (``acks_late`` tasks, and every
task waiting for its ETA) asks Redis to put them back, and kombu 5.7 then builds a new Redis
client from the connection details that collecting just dropped: ``AttributeError: 'NoneType'
object has no attribute 'hostname'``. That is not one of the connection errors Celery expects
while closing a broken connection, so it stops the worker ("Unrecoverable error") instead of
reconnecting, and its queue goes unserved until a supervisor starts it again.

Here a channel whose connection was collected closes as a broken channel does: the failure
becomes the transport's own connection error, which Celery ignores while closing, and the
consumer reconnects with its usual back-off (``broker_connection_retry``). Nothing is lost
by not putting the messages back from this channel: Redis keeps each unacknowledged message
and hands it out again after ``visibility_timeout`` (kombu's ``restore_visible``); messages a
Redis restart without persistence dropped are gone either way, and the periodic sweeps
(``games/tasks.py``) redo their work. ``tests/integration/test_broker_restart_live.py``
restarts a real Redis under each kind of worker and sees the next task run.

The same collected connection breaks an *acknowledgement*: a task that was running when the
connection broke finishes after the consumer has reconnected, and ``acks_late`` acknowledges its
message on the old channel, whose connection details are gone (the same ``AttributeError``,
raised in the event loop, where Celery stops the worker too; seen once in several runs of the
beat test, a sweep finishing just after the restart). That channel can no longer acknowledge
anything: its delivery tags mean nothing to the new connection, and Redis hands the message out
again after ``visibility_timeout`` (the task runs again, as every task here may: at least once).
So an acknowledgement on a collected channel is dropped with a warning.

Used for ``redis://`` and ``rediss://`` brokers only (``config/settings.py``,
``CELERY_BROKER_TRANSPORT``); the embedded SQLite broker has no such path.
"""

from __future__ import annotations

import logging

import redis
from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)


class Channel(kombu_redis.Channel):
    def collected(self) -> bool:
        """Whether Celery collected this channel's connection (a broken one): its connection
        details, which every new Redis client is built from, are gone."""
        return getattr(self.connection, "client", None) is None

    def basic_ack(self, delivery_tag: str, multiple: bool = False) -> None:
        if self.collected():
            log.warning(
                "broker: not acknowledging message %s on a channel whose connection broke;"
                " Redis hands it out again after its visibility timeout",
                delivery_tag,
            )
            return
        super().basic_ack(delivery_tag, multiple=multiple)

    def close(self) -> None:
        try:
            super().close()
        except AttributeError as exc:
            if not self.collected():
                raise  # not the collected-connection case: a real bug, let it show
            raise redis.exceptions.ConnectionError(
                "the broker connection was collected before its channel closed"
            ) from exc


class Transport(kombu_redis.Transport):
    Channel = Channel
