"""Benchmark: one SendGrid event post of 2,500 events (SendGrid's batches hold up to a few
thousand; it waits a few seconds for the answer), answered by ``games.mailevents.webhooks``.

Each run posts a fresh batch (new event ids, so nothing is a duplicate) and a tenth of one,
and prints milliseconds and queries per batch: the queries must not grow with the batch
(``services.mail_events_record``: the accounts read, the profiles locked, the rows written and
the effects made at once), the time must stay well within SendGrid's timeout.

Before and after: run this file from a checkout of each version, alternating (there is no
per-event path left in the product to compare with in one process).

    .venv/bin/python bench/sendgrid_batch_bench.py [--events 2500] [--users 5000] [--runs 4]

PostgreSQL, DEBUG off (bench/_djangobench.py). Events: 60 % delivered/open (nothing to act on),
the rest bounces, drops and spam reports for distinct players (each acted on).
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=2500)
    ap.add_argument("--users", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=4)
    args = ap.parse_args()
    import _djangobench

    _djangobench.setup()
    try:
        _bench(args)
    finally:
        _djangobench.teardown()


def _bench(args: argparse.Namespace) -> None:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    settings.SENDGRID_WEBHOOK_VERIFICATION_KEY = base64.b64encode(public).decode()
    settings.ALLOWED_HOSTS = ["*"]
    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"sg{i}", email=f"sg{i}@example.com") for i in range(args.users)]
    )
    from accounts.models import Profile

    Profile.objects.bulk_create(
        [Profile(user=u) for u in User.objects.filter(profile__isnull=True)],
        ignore_conflicts=True,
    )
    client = Client()

    def batch(run: int, size: int) -> bytes:
        events = []
        for i in range(size):
            who = f"sg{(run * args.events + i) % args.users}@example.com"
            kind = ("delivered", "open", "delivered", "bounce", "dropped")[i % 5]
            if i % 10 == 9:
                kind = "spamreport"
            events.append(
                {
                    "email": who,
                    "timestamp": 1764117999,
                    "event": kind,
                    "type": "bounce",
                    "reason": "550 5.1.1 unknown recipient",
                    "sg_event_id": f"ev-{run}-{i}",
                    "sg_message_id": f"m{run}.{i}.filter0001",
                }
            )
        return json.dumps(events).encode()

    def post(body: bytes) -> tuple[float, int]:
        stamp = "1764118000"
        sig = private.sign(stamp.encode() + body, ec.ECDSA(hashes.SHA256()))
        count = [0]

        def counted(execute, sql, params, many, context):
            count[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            t = time.perf_counter()
            r = client.post(
                "/mail/events/sendgrid/",
                body,
                content_type="application/json",
                HTTP_X_TWILIO_EMAIL_EVENT_WEBHOOK_SIGNATURE=base64.b64encode(sig).decode(),
                HTTP_X_TWILIO_EMAIL_EVENT_WEBHOOK_TIMESTAMP=stamp,
            )
            ms = (time.perf_counter() - t) * 1000
        assert r.status_code == 200, r.content[:300]
        return ms, count[0]

    figures: dict[int, list[tuple[float, int]]] = {args.events: [], args.events // 10: []}
    post(batch(10_000, 10))  # the first request imports the URLconf: not the batch's time
    run = 0
    for _ in range(args.runs):
        for size in figures:
            figures[size].append(post(batch(run, size)))
            run += 1
    print(f"SendGrid batch, {args.users} accounts, {args.runs} runs each")
    for size, rows in figures.items():
        ms = [r[0] for r in rows]
        print(
            f"  {size:5} events: median {statistics.median(ms):8.0f} ms  "
            f"(min {min(ms):.0f}, max {max(ms):.0f})  queries {rows[-1][1]}"
        )


if __name__ == "__main__":
    main()
