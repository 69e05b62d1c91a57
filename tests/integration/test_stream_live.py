"""A third party's bot account plays from the event stream: a real ASGI server (uvicorn) serves
``GET /api/v1/stream/``, woken by Redis publish/subscribe when a move commits on PostgreSQL; a
real Celery worker sends the human's emails. The bot learns of each of its turns from the stream
(never by polling) and answers through the REST API of the same server."""

from __future__ import annotations

import http.client
import json
import queue
import subprocess
import sys
import threading
import time

import pytest
from livehelpers import ROOT, free_port, make_users, wait_for

pytestmark = [pytest.mark.integration]


class SseClient(threading.Thread):
    """Reads one stream into ``events`` as (arrival time, data) until closed."""

    def __init__(
        self, port: int, path: str, token: str | None = None, last_id: str | None = None
    ) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Token {token}"
        if last_id is not None:
            headers["Last-Event-ID"] = last_id
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.events: queue.Queue[tuple[float, dict]] = queue.Queue()
        #: (id, event type, data) of every event read, in order.
        self.told: list[tuple[str | None, str, dict]] = []

    def run(self) -> None:
        event_id, kind = None, "message"
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    event_id = line[4:]
                elif line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    self.told.append((event_id, kind, data))
                    self.events.put((time.time(), data))
                elif not line:
                    event_id, kind = None, "message"
        except (OSError, ValueError, AttributeError):  # closed by the test (http.client's None fp)
            pass

    def next_turn(self, game_id: int, after_seq: int, timeout: float = 10.0) -> tuple[float, dict]:
        end = time.monotonic() + timeout
        while True:
            at, body = self.events.get(timeout=max(0.01, end - time.monotonic()))
            if body.get("event") != "game":  # sheet_asked, takeback, ...: not a turn
                continue
            game = body["game"]
            if game["id"] == game_id and game["seq"] > after_seq and body.get("your_turn"):
                return at, body
            if game["status"] == "finished":
                return at, body

    def close(self) -> None:
        self.conn.close()


def _uvicorn(env: dict[str, str], tmp_path, name: str = "uvicorn"):
    port = free_port()
    log = (tmp_path / f"{name}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip

    def up() -> bool:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/health/json/")
            c.getresponse().read()
            return True
        except OSError:
            return False

    wait_for(up, 30, 0.1, what="uvicorn up")
    return port, proc


@pytest.fixture
def asgi_server(worker_env, redis_server, tmp_path):
    env = {**worker_env, "STREAM_REDIS_URL": redis_server.url, "API_THROTTLE_USER": "100000/min"}
    port, proc = _uvicorn(env, tmp_path)
    yield port
    _stop(proc)


@pytest.fixture(params=["redis", "no_redis"])
def asgi_either(request, worker_env, redis_server, tmp_path, settings):
    """An ASGI stream server woken by Redis, or (the embedded set-up) without Redis, its hub
    reading the log every STREAM_FALLBACK_SECONDS; this process publishes wake-ups to match."""
    env = {**worker_env, "API_THROTTLE_USER": "100000/min", "STREAM_FALLBACK_SECONDS": "0.3"}
    if request.param == "redis":
        env["STREAM_REDIS_URL"] = redis_server.url
        settings.STREAM_REDIS_URL = redis_server.url
    else:
        env.pop("STREAM_REDIS_URL", None)
        settings.STREAM_REDIS_URL = ""
    port, proc = _uvicorn(env, tmp_path, f"uvicorn-{request.param}")
    yield port
    _stop(proc)


def _stop(proc: subprocess.Popen) -> None:
    """uvicorn waits for open connections on SIGTERM: a stream a failed test left open would
    hold it, and the teardown's error hide the failure; killed after 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def _post(port: int, path: str, token: str, body: dict) -> tuple[int, dict]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request(
        "POST",
        path,
        body=json.dumps(body),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    r = c.getresponse()
    return r.status, json.loads(r.read() or b"{}")


def test_a_bot_account_gets_its_turns_from_the_stream(
    pg_db, workers, asgi_server, settings, redis_server
):
    from knox.models import AuthToken

    import powergrid
    from games import services
    from games.models import Game, Seat
    from games.services.bots import bot_account_upgrade
    from games.services.moves import move_submit

    settings.STREAM_REDIS_URL = redis_server.url  # this process publishes the human's moves
    workers("w1")
    human, bot = make_users(2)
    bot_account_upgrade(user=bot)
    _, token = AuthToken.objects.create(bot)
    stream = SseClient(asgi_server, "/api/v1/stream/", token)
    stream.start()
    watcher = None
    # Move by move: a turn at a time (a sheet game's stream: tests/games/stream/).
    game = services.game_create(
        creator=human, map="germany", max_players=2, options={"sheets": False}
    )
    watcher = SseClient(asgi_server, f"/api/v1/stream/?game={game.pk}")
    watcher.start()
    services.game_join(game_id=game.pk, user=bot)  # full: it starts
    bot_seat = Seat.objects.get(game=game, user=bot).seat
    latencies: list[float] = []
    bot_moves = 0
    told = -1  # the seq of the last turn the stream told the bot of
    for _ in range(400):
        g = Game.objects.get(pk=game.pk)
        if g.status == "finished" or bot_moves >= 25:
            break
        if bot_seat in g.to_act:
            # The bot is told by the stream, then answers through the API.
            if told != g.seq:
                _at, body = stream.next_turn(g.pk, g.seq - 1)
                assert body["your_turn"] is True
                assert body["seat"] == bot_seat
                told = body["game"]["seq"]
            state = powergrid.from_json(g.state_json)
            status, answer = _post(
                asgi_server,
                f"/api/v1/games/{g.pk}/moves/",
                token,
                {"action": powergrid.default_action(state, bot_seat), "expected_seq": g.seq},
            )
            assert status in (200, 201), answer
            bot_moves += 1
            continue
        seat = g.to_act[0]
        state = powergrid.from_json(g.state_json)
        move_submit(game_id=g.pk, user=human, expected_seq=g.seq, source="web",
                    action=powergrid.default_action(state, seat))  # fmt: skip
        committed = time.time()
        g = Game.objects.get(pk=game.pk)
        if bot_seat in g.to_act:
            at, body = stream.next_turn(g.pk, g.seq - 1)
            latencies.append(at - committed)
            assert body["game"]["seq"] == g.seq
            told = g.seq
    assert bot_moves >= 10
    # The watcher saw the game's changes, with public facts only.
    wait_for(lambda: watcher.events.qsize() >= 10, 10, what="the watcher's events")
    _at, seen = watcher.events.get()
    assert set(seen["game"]) == {"id", "map", "seq", "status", "to_act"}
    assert "your_turn" not in seen
    stream.close()
    watcher.close()
    latencies.sort()
    print(
        f"stream: the bot's turn reached it p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, "
        f"max {latencies[-1] * 1000:.0f} ms after the commit, over {len(latencies)} turns"
    )
    assert latencies[-1] < 5  # the issue asks 1 s: the figure above; this only catches a hang


def _move(game_id: int, users: list) -> int:
    """The awaited seat plays its default move (committed); the new seq."""
    import powergrid
    from games.models import Game, Seat
    from games.services.moves import move_submit

    g = Game.objects.get(pk=game_id)
    seat = g.to_act[0]
    user_id = Seat.objects.get(game=g, seat=seat).user_id
    user = next(u for u in users if u.pk == user_id)
    action = powergrid.default_action(powergrid.from_json(g.state_json), seat)
    move_submit(game_id=game_id, user=user, action=action, expected_seq=g.seq, source="web")
    return g.seq + 1


def _wait_told(stream: SseClient, n: int) -> list[tuple[str | None, str, dict]]:
    wait_for(lambda: len(stream.told) >= n, 15, 0.02, what=f"{n} events")
    return stream.told[:n]


def test_dropping_the_connection_mid_game_and_resuming_misses_nothing(pg_db, asgi_either):
    """In both set-ups: a player's stream and a watcher's read a few changes, drop the
    connection, the game goes on, they reconnect with Last-Event-ID: every change once, in
    order, then the live ones."""
    from knox.models import AuthToken

    from games import services

    users = make_users(3)
    game = services.game_create(creator=users[0], map="germany", max_players=3)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    _, token = AuthToken.objects.create(users[1])
    paths = [("/api/v1/stream/", token), (f"/api/v1/stream/?game={game.pk}", None)]
    for path, tok in paths:
        first = SseClient(asgi_either, path, tok)
        first.start()
        before = _wait_told(first, 1)  # the snapshot
        seq0 = before[0][2]["game"]["seq"]
        for _ in range(3):
            _move(game.pk, users)
        before = _wait_told(first, 4)[1:]
        first.close()  # the connection drops mid-game
        for _ in range(4):
            seq = _move(game.pk, users)
        resumed = SseClient(asgi_either, path, tok, last_id=before[-1][0])
        resumed.start()
        missed = _wait_told(resumed, 4)
        seq = _move(game.pk, users)
        told = before + _wait_told(resumed, 5)
        time.sleep(0.5)  # nothing more comes
        assert len(resumed.told) == 5, resumed.told
        resumed.close()
        seqs = [body["game"]["seq"] for _i, _k, body in told]
        assert seqs == list(range(seq0 + 1, seq + 1)), (path, seqs)
        assert [k for _i, k, _b in missed] == ["game"] * 4
        ids = [int(i or 0) for i, _k, _b in told]
        assert ids == sorted(set(ids))
