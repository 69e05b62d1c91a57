"""A real HTTP receiver for webhook tests: a thread running http.server on a free port that
records each post and answers what the test asks (a status, a delay, or nothing: down)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Post:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    posts: list[Post] = field(default_factory=list)
    status: int = 200
    delay: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def deliveries(self) -> list[str]:
        with self.lock:
            return [p.headers.get("X-Powergrid-Delivery", "") for p in self.posts]


def start() -> Receiver:
    holder: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            r = holder["r"]
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if r.delay:
                time.sleep(r.delay)
            with r.lock:
                r.posts.append(
                    Post(self.path, {k.title(): v for k, v in self.headers.items()}, body)
                )
            self.send_response(r.status)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder["r"] = Receiver(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return holder["r"]
