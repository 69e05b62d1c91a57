"""A web request stuck on the database fails first, with a clean answer: its statement is
cancelled (``statement_timeout``) or its lock wait given up (``lock_timeout``) before gunicorn's
timeout kills the sync worker mid-request (nginx's 502, or the POST passed to the other host).
deploy/gunicorn.conf.py sets both below GUNICORN_TIMEOUT for the web processes only; the error is
an OperationalError, answered 503 with Retry-After, nothing changed (config/unavailable.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import psycopg
import pytest
from apihelpers import seat_players
from django.db import connection

from config.settings import statement_limits
from games.models import Game, IdempotencyRecord, Move

ROOT = Path(__file__).resolve().parents[2]


def _dsn() -> str:
    s = connection.settings_dict
    return (
        f"host={s['HOST'] or '127.0.0.1'} port={s['PORT'] or 5432} user={s['USER']} "
        f"dbname={s['NAME']}" + (f" password={s['PASSWORD']}" if s["PASSWORD"] else "")
    )


def _limits_from_gunicorn_conf(**env: str) -> tuple[str, str]:
    code = (
        "import os, runpy; runpy.run_path('deploy/gunicorn.conf.py');"
        "print(os.environ['DATABASE_STATEMENT_TIMEOUT_MS'], os.environ['DATABASE_LOCK_TIMEOUT_MS'])"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("GUNICORN_TIMEOUT", "DATABASE_STATEMENT_TIMEOUT_MS", "DATABASE_LOCK_TIMEOUT_MS")
    }
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    statement, lock = out.stdout.split()
    return statement, lock


def test_the_web_processes_limit_statements_below_gunicorns_timeout():
    assert _limits_from_gunicorn_conf() == ("15000", "7500")  # GUNICORN_TIMEOUT 30
    assert _limits_from_gunicorn_conf(GUNICORN_TIMEOUT="60") == ("30000", "15000")
    # chosen in the environment, or none
    assert _limits_from_gunicorn_conf(DATABASE_STATEMENT_TIMEOUT_MS="0") == ("0", "7500")
    assert statement_limits(15000, 7500) == "-c statement_timeout=15000 -c lock_timeout=7500"
    assert statement_limits(0, 7500) == "-c lock_timeout=7500"
    assert statement_limits(0, 0) == ""


def test_the_limits_reach_the_connection_and_nothing_else_has_them():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env.update(
        DATABASE_URL="postgres://u@127.0.0.1:5432/db?application_name=web",
        DATABASE_STATEMENT_TIMEOUT_MS="15000",
        DATABASE_LOCK_TIMEOUT_MS="7500",
        DATABASE_REPLICA_URL="postgres://u@127.0.0.1:5433/db",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['OPTIONS']['options']);"
        "print(s.DATABASES['default']['OPTIONS'].get('application_name'));"
        "print(s.DATABASES['replica']['OPTIONS']['options'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == [
        "-c statement_timeout=15000 -c lock_timeout=7500",
        "web",
        "-c statement_timeout=15000 -c lock_timeout=7500",
    ]
    del env["DATABASE_STATEMENT_TIMEOUT_MS"], env["DATABASE_LOCK_TIMEOUT_MS"]
    code = "from django.conf import settings as s; print(s.DATABASES['default']['OPTIONS'])"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "statement_timeout" not in out  # workers, beat, commands: no limits


@pytest.fixture
def limited(monkeypatch):
    """This process's connection opened again with the web processes' limits (short ones)."""
    if connection.vendor != "postgresql":
        pytest.skip("statement_timeout and lock_timeout are PostgreSQL's")

    def limit(statement_ms: int, lock_ms: int) -> None:
        options = {
            **connection.settings_dict.get("OPTIONS", {}),
            "options": statement_limits(statement_ms, lock_ms),
        }
        monkeypatch.setitem(connection.settings_dict, "OPTIONS", options)
        connection.close()

    yield limit
    monkeypatch.undo()
    connection.close()


def _opening_move(gid, ps):
    seats = seat_players(gid, ps)
    actor = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    player = seats[actor]
    legal = player.get(f"/api/v1/games/{gid}/state/").json()["legal"]
    plant = next(e for e in legal if e["type"] == "choose_plant")["plants"][0]
    return player, {"type": "choose_plant", "plant": plant["number"], "bid": plant["min_bid"]}


@pytest.mark.django_db(transaction=True)
def test_a_move_waiting_too_long_for_its_game_lock_answers_503_and_changes_nothing(
    new_game, limited
):
    gid, ps = new_game(players=3)
    player, action = _opening_move(gid, ps)
    url = f"/api/v1/games/{gid}/moves/"
    body = {"action": action, "expected_seq": 0}
    limited(2000, 300)
    other = psycopg.connect(_dsn())
    try:
        # another transaction holds the game row (longer than the lock wait allowed)
        other.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", (gid,)).fetchone()
        r = player.post(url, body, HTTP_IDEMPOTENCY_KEY="stuck")
    finally:
        other.rollback()
        other.close()
    assert r.status_code == 503, r.content
    assert r["Retry-After"] == "5"
    error = r.json()["error"]
    assert error["code"] == "service_unavailable"
    assert "nothing was changed" in error["message"]
    assert Game.objects.get(pk=gid).seq == 0
    assert not Move.objects.filter(game_id=gid).exists()
    assert not IdempotencyRecord.objects.filter(key="stuck").exists()
    # the lock released, the client's retry (same key) applies once
    again = player.post(url, body, HTTP_IDEMPOTENCY_KEY="stuck")
    assert again.status_code == 201, again.content
    assert Move.objects.filter(game_id=gid).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_statement_running_too_long_answers_503_with_retry_after(new_game, limited):
    gid, ps = new_game(players=3)
    limited(200, 0)

    def slow(*args, **kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(2)")

    with mock.patch("games.api.play.selectors.game_state_for", side_effect=slow):
        r = ps[0].get(f"/api/v1/games/{gid}/state/")
    assert r.status_code == 503, r.content
    assert r["Retry-After"] == "5"
    assert r.json()["error"]["code"] == "service_unavailable"
