"""Profile the worker's batch send in-process: where the CPU of one turn email goes.

    .venv/bin/python bench/notify_profile.py [--emails 300] [--rounds 3] [--profiler cprofile]

Sets up ``--emails`` two-player games, each with one pending turn notice (as notify_bench does;
``--moves N`` plays N default moves in each game first, so the notices list moves; ``--ja F``
makes a fraction F of the players Japanese in Asia/Tokyo), then sends them ``--rounds`` times
through ``sending.notifications_send_batch`` (the rows are put back to pending between rounds) to
bench/smtp_sink.py in a process of its own, and prints the CPU time per email of this process
(the sender thread included). ``--profiler cprofile|pyinstrument|none`` profiles the last round.
Runs as the production worker does: DEBUG=False.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["DEBUG"] = "False"
os.environ.setdefault("SECRET_KEY", "notify-bench-only-" + "x" * 40)

import _djangobench

ROOT = _djangobench.ROOT
sys.path.insert(0, str(ROOT / "tests" / "integration"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--emails", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--moves", type=int, default=0)
    ap.add_argument("--ja", type=float, default=0.0)
    ap.add_argument("--profiler", choices=["cprofile", "pyinstrument", "none"], default="cprofile")
    ap.add_argument("--top", type=int, default=45)
    ap.add_argument(
        "--inline",
        action="store_true",
        help="NOTIFY_SEND_THREAD=False: send on the main thread, so the profile sees it too",
    )
    ap.add_argument(
        "--build-only",
        action="store_true",
        help="no sending: the CPU of reading a batch and building its emails and SMTP bytes, "
        "best of --rounds (less noisy on a shared machine)",
    )
    ap.add_argument("--switch-interval", type=float, default=None, help="sys.setswitchinterval")
    args = ap.parse_args()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    _djangobench.setup()
    tmp = Path(tempfile.mkdtemp(prefix="notify-profile-"))
    import livehelpers as lh
    from django.conf import settings
    from django.db import connections
    from notify_bench import ProcessSink

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    lh.use_broker("memory://")
    port = lh.free_port()
    sink = ProcessSink(port, tmp / "sink.log")
    sink.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    if args.inline:
        settings.NOTIFY_SEND_THREAD = False
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        from accounts.models import Profile
        from games.models import Notification
        from games.notifications import sending, smtp

        t = time.perf_counter()
        for g in range(args.emails):
            gid, users = lh.start_game(2)
            for _ in range(args.moves):
                lh.play_default(gid, users)
            if int((g + 1) * args.ja) > int(g * args.ja):  # a fraction --ja of the games
                Profile.objects.filter(user__in=users).update(language="ja", timezone="Asia/Tokyo")
        _djangobench.turn_notices_for_awaited_seats()
        n = Notification.objects.count()
        print(f"setup: {n} pending turn notices in {time.perf_counter() - t:.1f} s")
        sending.warm_up()

        def one_round() -> tuple[float, float, dict[str, int]]:
            Notification.objects.update(
                status="pending", claimed_at=None, attempts=0, sent_at=None, dedupe_key=None
            )
            smtp.connection_reset()
            counts: dict[str, int] = {}
            c0, w0 = time.process_time(), time.perf_counter()
            while part := sending.notifications_send_batch(due=True):
                sending._merge(counts, part)
            return time.process_time() - c0, time.perf_counter() - w0, counts

        if args.build_only:
            build_only(args)
            return
        for r in range(args.rounds):
            last = r == args.rounds - 1
            prof: object = None
            if last and args.profiler == "cprofile":
                import cProfile

                prof = cProfile.Profile(time.process_time)
                prof.enable()  # type: ignore[attr-defined]
            elif last and args.profiler == "pyinstrument":
                from pyinstrument import Profiler

                prof = Profiler(interval=0.0005)
                prof.start()  # type: ignore[attr-defined]
            cpu, wall, counts = one_round()
            sent = counts.get("sent", 0)
            tag = f" (profiled: {args.profiler})" if prof is not None else ""
            print(
                f"round {r + 1}: {sent} emails in {wall:.2f} s = {sent / wall:.0f}/s, "
                f"CPU {cpu:.2f} s = {cpu / max(1, sent) * 1000:.2f} ms per email {counts}{tag}"
            )
            if prof is not None and args.profiler == "cprofile":
                import pstats

                prof.disable()  # type: ignore[attr-defined]
                stats = pstats.Stats(prof)  # type: ignore[arg-type]
                stats.sort_stats("cumulative").print_stats(args.top)
                stats.sort_stats("tottime").print_stats(args.top)
            elif prof is not None:
                prof.stop()  # type: ignore[attr-defined]
                print(prof.output_text(unicode=True, color=False, show_all=False))  # type: ignore[attr-defined]
        # What an on-commit task that finds its rows taken costs (the claim statement alone).
        game_ids = list(Notification.objects.values_list("game_id", flat=True))
        c0, w0 = time.process_time(), time.perf_counter()
        for g in game_ids:
            assert sending.notifications_send_game(game_id=g, drain=True) == {}
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        print(
            f"{len(game_ids)} claims finding nothing: {wall / len(game_ids) * 1000:.2f} ms, "
            f"CPU {cpu / len(game_ids) * 1000:.2f} ms each"
        )
    finally:
        sink.stop()
        connections.close_all()
        _djangobench.teardown()


def build_only(args: argparse.Namespace) -> None:
    from games.fastpath import wire
    from games.models import Notification
    from games.notifications import emails

    ids = list(Notification.objects.order_by("id").values_list("id", flat=True))
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for start in range(0, len(ids), 100):
            part = ids[start : start + 100]
            c0 = time.process_time()
            rows = list(
                Notification.objects.filter(pk__in=part)
                .select_related("recipient__profile", "game")
                .order_by("id")
            )
            pf = emails.prefetch(rows)
            c1 = time.process_time()
            messages = [emails.email_build(n, pf) for n in rows]
            c2 = time.process_time()
            for m in messages:
                wire.smtp_payload(m)
            c3 = time.process_time()
            for name, t in (("read", c1 - c0), ("build", c2 - c1), ("bytes", c3 - c2)):
                best[name] = min(best.get(name, 1e9), t / len(rows) * 1000)
    total = sum(best.values())
    print(
        "best ms per email: "
        + ", ".join(f"{k} {v:.3f}" for k, v in best.items())
        + f"; total {total:.3f}"
    )


if __name__ == "__main__":
    main()
