"""Three bot starters (examples/bot_starter/) play a whole 3-player game against the running
server: uvicorn (the API and the stream, woken by Redis), PostgreSQL, a real Celery worker. Each
plays through the generated client (clients/python) and learns of its turns from the stream
only. Every answer the bots receive is validated against the published schema (strict: no
undeclared key, formats checked), every stream event against ``StreamEvent``; no 5xx."""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

import pytest
from livehelpers import ROOT, make_users, wait_for
from test_stream_live import _uvicorn

pytestmark = [pytest.mark.integration]

sys.path[:0] = [str(ROOT / "clients" / "python"), str(ROOT / "examples" / "bot_starter")]


class Checked:
    """The httpx response hook that validates each answer (``tests/api_schema.check_response``
    reads Django responses: this adapts httpx's)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.answers = 0
        self.events = 0
        self.failures: list[str] = []

    def response(self, response: Any) -> None:
        from tests.api_schema import check_response

        if response.headers.get("content-type", "").startswith("text/event-stream"):
            return
        response.read()

        class Adapted:
            status_code = response.status_code
            content = response.content
            streaming = False

            @staticmethod
            def get(name: str, default: str = "") -> str:
                return response.headers.get(name, default)

        try:
            assert response.status_code < 500, response.text[:300]
            check_response(response.request.method, response.request.url.path, Adapted)
        except Exception as exc:
            with self.lock:
                self.failures.append(str(exc)[:500])
        with self.lock:
            self.answers += 1

    def event(self, data: dict[str, Any]) -> None:
        from tests.api_schema import shape_errors

        errors = shape_errors("StreamEvent", data)
        with self.lock:
            self.events += 1
            if errors:
                self.failures.append(f"event {json.dumps(data)[:200]}: {errors}")


def test_three_bot_starters_play_a_whole_game_through_the_generated_client(
    pg_db, workers, worker_env, redis_server, tmp_path, settings, monkeypatch
):
    import bot_starter
    from knox.models import AuthToken

    from games import services
    from games.models import Game, Move
    from games.services.bots import bot_account_upgrade

    settings.STREAM_REDIS_URL = redis_server.url
    env = {**worker_env, "STREAM_REDIS_URL": redis_server.url, "API_THROTTLE_USER": "100000/min"}
    port, server = _uvicorn(env, tmp_path)
    workers("w1")
    from tests.api_schema import published_schema, shape_errors

    published_schema()  # built once here, not by three bot threads at once
    shape_errors("StreamEvent", {})
    checked = Checked()
    events = bot_starter.events

    def checked_events(client, last_id):
        for data in events(client, last_id):
            checked.event(data)
            yield data

    monkeypatch.setattr(bot_starter, "events", checked_events)
    try:
        users = make_users(3, prefix="b")
        tokens = []
        for u in users:
            bot_account_upgrade(user=u)
            tokens.append(AuthToken.objects.create(u)[1])
        game = services.game_create(creator=users[0], map="germany", max_players=3)
        for u in users[1:]:
            services.game_join(game_id=game.pk, user=u)
        started = time.monotonic()
        args = {"event_hooks": {"response": [checked.response]}}
        crashed: list[str] = []

        def bot(token: str) -> None:
            try:
                bot_starter.run(f"http://127.0.0.1:{port}", token, game.pk, args)
            except BaseException as exc:
                crashed.append(repr(exc))
                raise

        bots = [threading.Thread(target=bot, args=(t,), daemon=True) for t in tokens]
        for b in bots:
            b.start()
        wait_for(
            lambda: crashed or not any(b.is_alive() for b in bots),
            900,
            0.5,
            what="the bots' game to end",
        )
        assert not crashed, crashed
        took = time.monotonic() - started
        g = Game.objects.get(pk=game.pk)
        assert g.status == Game.Status.FINISHED
        moves = Move.objects.filter(game=g)
        assert not moves.exclude(source=Move.Source.API).exists()  # the bots made every move
        assert checked.failures == [], checked.failures[:5]
        print(
            f"bot starters: a 3-player game of {moves.count()} moves in {took:.0f} s; "
            f"{checked.answers} answers and {checked.events} stream events validated"
        )
    finally:
        server.terminate()
        server.wait(10)
