"""Integration fixtures (defined in livehelpers.py, re-exported here for pytest)."""

from livehelpers import (  # noqa: F401
    pg_db,
    redis_server,
    settings_for_integration,
    smtp_sink,
    worker_env,
    workers,
)
