"""Property-based fuzzing of every operation in /api/schema/: no input may cause a 5xx, and
every answer (status, content type, body) is one the published schema describes, so a client
generated from the schema can read it."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


class _Sink(BaseHTTPRequestHandler):
    """The local receiver every webhook post of the run goes to (never the internet)."""

    posts: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
        _Sink.posts.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def sink():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Sink)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()


@pytest.fixture
def webhooks_to_sink(sink, monkeypatch):
    """Webhook addresses are checked as in production (https, ports, public addresses), with
    every host name resolving to one public address (no DNS query leaves the machine), and
    every post goes to the local sink."""
    import socket

    from games.webhooks import safety, sending

    public = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 443))]

    def resolve(host: str, *args: object, **kwargs: object) -> list:
        if not host or len(host) > 253:
            raise socket.gaierror("no such name")
        return public

    real_send = sending._send
    monkeypatch.setattr(safety.socket, "getaddrinfo", resolve)
    monkeypatch.setattr(
        sending, "_send", lambda url, addresses, body, headers: real_send(sink, [], body, headers)
    )


@pytest.fixture
def api_game(new_game, webhooks_to_sink):
    """A running game the fuzzed requests can reach; the caller holds seat of player 0.

    The WSGI handler closes the database connection after each request; like Django's test
    client, keep it open so the test's transaction survives.
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    gid, ps = new_game(players=3)  # (Django's test client reconnects the receivers)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield gid, ps[0]
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors(case, api_game):
    gid, player = api_game
    params = case.path_parameters or {}
    # Half the cases aim at a real game so the engine sees the fuzzed actions.
    if "game_id" in params and hash(repr(case.body)) % 2 == 0:
        case.path_parameters["game_id"] = gid
    if case.path_parameters and "slug" in case.path_parameters and hash(repr(case.query)) % 2:
        case.path_parameters["slug"] = "germany"
    headers = {"Authorization": f"Token {player.token}"}
    if case.operation.path == "/api/v1/auth/token/" and case.method.upper() == "DELETE":
        return  # would revoke the token the other cases use
    if case.operation.path == "/api/v1/stream/" or case.operation.path == "/api/v1/me/bot/":
        return  # an endless stream; a one-way change (tests/games/stream covers both)

    case.call_and_validate(
        headers=headers,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
    if case.operation.path.startswith("/api/v1/webhooks/"):
        # The posts wait for the commit the test's transaction never makes: send them now,
        # to the sink (a failure is recorded by its class, never raised).
        from games.webhooks.sending import deliveries_send

        deliveries_send()
