"""The lobby (the home page) with ``--games`` open games: server time per request, in process
(Django's test client, DEBUG off, PostgreSQL), signed out and signed in. Prints figures.

    .venv/bin/python bench/lobby_bench.py [--games 1000] [--requests 60]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import _djangobench

# As in production (DEBUG off), over HTTPS as the proxy would say.
os.environ.setdefault("ALLOWED_HOSTS", "testserver")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--requests", type=int, default=60)
    args = ap.parse_args()
    _djangobench.setup()
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # as deployed: hashed names
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.models import Game, Seat

    User = get_user_model()
    users = [User(username=f"lobby{i}", email=f"l{i}@example.com") for i in range(args.games)]
    for u in users:
        u.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith="lobby").order_by("pk"))
    from accounts.models import Profile

    Profile.objects.bulk_create(
        [Profile(user=u) for u in users if not Profile.objects.filter(user=u).exists()]
    )
    games = Game.objects.bulk_create(
        Game(creator=u, map="germany", max_players=4, status=Game.Status.OPEN) for u in users
    )
    Seat.objects.bulk_create(Seat(game=g, seat=0, user=g.creator, colour="red") for g in games)
    try:
        https = {"HTTP_X_FORWARDED_PROTO": "https", "secure": True}
        for label, client in (("signed out", Client(**https)), ("signed in", Client(**https))):
            if label == "signed in":
                client.force_login(users[0])
            client.get("/")  # warm
            times = []
            for _ in range(args.requests):
                t0 = time.perf_counter()
                r = client.get("/")
                times.append(time.perf_counter() - t0)
                assert r.status_code == 200
            times.sort()
            print(
                f"lobby with {args.games} open games, {label}: "
                f"p50 {statistics.median(times) * 1000:.1f} ms, "
                f"p90 {times[int(len(times) * 0.9)] * 1000:.1f} ms"
            )
    finally:
        _djangobench.teardown()


if __name__ == "__main__":
    main()
