"""Webhook deliveries per second from one worker process to a local receiver.

    .venv/bin/python bench/webhook_bench.py [--deliveries 2000]

Writes ``--deliveries`` pending deliveries (signed generic JSON) for one webhook, then runs the
worker's sending loop (``games.webhooks.sending.deliveries_send``: claim a batch, post each
with a kept-alive HTTP connection, record) in this process, against a receiver in a process of
its own (a threading http.server answering 200). Prints deliveries/s and the receiver's count
(duplicates would show there). Needs PostgreSQL. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import _djangobench

RECEIVER = r"""
import sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
seen = set()
lock = threading.Lock()
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with lock:
            seen.add(self.headers.get("X-PowerGrid-Delivery"))
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def do_GET(self):
        body = str(len(seen)).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body)))
        self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deliveries", type=int, default=2000)
    args = ap.parse_args()
    os.environ["WEBHOOK_ALLOW_PRIVATE"] = "True"
    _djangobench.setup()
    import requests
    from django.contrib.auth import get_user_model

    from games.models import Webhook, WebhookDelivery
    from games.webhooks.sending import deliveries_send

    proc = subprocess.Popen([sys.executable, "-c", RECEIVER], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        user = get_user_model().objects.create_user("hookbench", "h@example.com", "x")
        hook = Webhook.objects.create(
            owner=user, url=f"http://127.0.0.1:{port}/hook", secret="s" * 64, events=[]
        )
        WebhookDelivery.objects.bulk_create(
            WebhookDelivery(
                webhook=hook,
                event="your_turn",
                payload={"event": "your_turn", "game": {"id": i, "map": "germany"}, "seat": 1},
                dedupe_key=f"bench:{i}",
            )
            for i in range(args.deliveries)
        )
        t0 = time.perf_counter()
        counts = deliveries_send()
        took = time.perf_counter() - t0
        received = int(requests.get(f"http://127.0.0.1:{port}/", timeout=5).text)
        print(
            f"{counts['sent']} deliveries sent in {took:.2f} s = {counts['sent'] / took:.0f}/s "
            f"from one process (failed {counts['failed']}); the receiver counted {received} "
            "distinct deliveries"
        )
    finally:
        proc.kill()
        _djangobench.teardown()


if __name__ == "__main__":
    main()
