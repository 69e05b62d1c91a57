"""Benchmark: the server time of every page the whole-game browser walk visits
(tests/e2e/test_whole_game_walk_browser.py), wall and CPU, with the queries each page ran.

    .venv/bin/python bench/walk_pages_bench.py [--runs 5] [--profile PAGE] [--hasher NAME]

A practice game for three (anna and two bots, Germany) is played to the end with the heuristic
bot in every seat through the move service; after every move the game page is rendered for anna,
as the walk's open page renders it again on every change (each one a first render of a new
state: what it costs is the ``game page (after each move)`` line). Then the other pages the walk
visits, each rendered once cold and ``--runs`` times more. Logging in is timed with the hashers
given (``--hasher``, repeatable; default: Django's PBKDF2, then the site's first), alternated
in the same run (the machine is shared: alternating keeps the comparison fair).

The production configuration as bench/page_bench.py sets it (DEBUG off, PostgreSQL: a throw-away
test database made from ``DATABASE_URL``, the process warmed as gunicorn's master does). CPU time
is this thread's (``time.thread_time``), what the page's Server-Timing ``cpu`` reports.
``--compare`` also times this stop's page changes against what they replaced, alternated.
``--profile PATH`` writes a pyinstrument profile of that page (``game`` for the game page after
each move) to test-artifacts/profile-<name>.html.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

PASSWORD = "pw-walk-123456"


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


class Timer:
    def __init__(self) -> None:
        self.rows: dict[str, dict[str, list[float]]] = {}

    def time(self, label: str, call: Callable[[], Any]) -> Any:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as q:
            w, c = time.perf_counter(), time.thread_time()
            out = call()
            cpu = (time.thread_time() - c) * 1000
            wall = (time.perf_counter() - w) * 1000
        row = self.rows.setdefault(label, {"wall": [], "cpu": [], "queries": []})
        row["wall"].append(wall)
        row["cpu"].append(cpu)
        row["queries"].append(len(q.captured_queries))
        return out

    def print(self) -> None:
        print(
            f"{'page':40s} {'n':>4s} {'wall p50':>9s} {'p95':>7s} {'max':>7s} "
            f"{'cpu p50':>8s} {'p95':>7s} {'max':>7s} {'queries':>8s}"
        )
        for label, r in self.rows.items():
            print(
                f"{label:40s} {len(r['wall']):4d} {statistics.median(r['wall']):9.1f} "
                f"{_pct(r['wall'], 0.95):7.1f} {max(r['wall']):7.1f} "
                f"{statistics.median(r['cpu']):8.1f} {_pct(r['cpu'], 0.95):7.1f} "
                f"{max(r['cpu']):7.1f} {max(r['queries']):8d}"
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", default="", help="a page's path, or 'game'")
    ap.add_argument("--hasher", action="append", default=[])
    ap.add_argument("--logins", type=int, default=6)
    ap.add_argument("--lang", default="en", help="anna's language (the walk plays in both)")
    ap.add_argument(
        "--compare",
        action="store_true",
        help="also time this stop's changes against what they replaced, alternated (before/after)",
    )
    args = ap.parse_args()

    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    os.environ["STATIC_ROOT"] = tempfile.mkdtemp(prefix="walk_bench_static_")
    import _djangobench
    import django

    django.setup()
    from django.core.management import call_command

    _djangobench.setup()
    try:
        call_command("collectstatic", interactive=False, verbosity=0)
        from config.warmup import warm_up

        warm_up()
        _bench(args)
    finally:
        _djangobench.teardown()


def _bench(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import selectors, services
    from powergrid.bots import HeuristicBot

    profiler: Any = None
    if args.profile:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0005)

    def maybe_profiled(path: str, call: Callable[[], Any]) -> Callable[[], Any]:
        if profiler is None or args.profile != path:
            return call

        def run() -> Any:
            profiler.start()
            try:
                return call()
            finally:
                profiler.stop()

        return run

    User = get_user_model()
    users = [User.objects.create_user(f"p{i}", f"p{i}@example.com", PASSWORD) for i in range(3)]
    anna = users[0]
    anna.username = "anna"
    anna.save()
    game = services.game_create(creator=anna, map="germany", max_players=3)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    anna.profile.language = args.lang
    anna.profile.save()
    https = {"HTTP_X_FORWARDED_PROTO": "https", "secure": True}
    c = Client(**https)
    c.force_login(anna)
    t = Timer()
    url = f"/games/{game.pk}/"
    # The process's first game page (after the warm-up), then a second one at the same state.
    for label in ("game page (the process's first)", "game page (the same state again)"):
        r = t.time(label, maybe_profiled("first", lambda: c.get(url)))
        assert r.status_code == 200, r.status_code
    bot = HeuristicBot()
    moves = 0
    while True:
        game = selectors.game_get(game_id=game.pk)
        state = selectors.game_engine_state(game)
        if state.phase == "finished":
            break
        seat = game.to_act[0]
        services.move_submit(
            game_id=game.pk,
            user=users[seat],
            action=bot.choose(state, seat),
            expected_seq=game.seq,
            source="bot",
        )
        moves += 1
        if moves % 3 == 0:  # every third state: the figures, without the whole game's time
            r = t.time("game page (after each move)", maybe_profiled("game", lambda: c.get(url)))
            assert r.status_code == 200, r.status_code
    print(f"game played to the end: {moves} moves, round {state.round}")
    pages = [
        "/",
        "/games/new/",
        url,
        f"{url}history/3/",
        f"{url}result/",
        "/players/anna/",
        "/accounts/profile/",
        "/accounts/tokens/",
        "/accounts/email/",
        "/webhooks/",
        "/account/bot/",
    ]
    for path in pages:
        for i in range(args.runs + 1):
            label = f"{path} ({'first' if i == 0 else 'again'})"
            r = t.time(label, maybe_profiled(path, lambda path=path: c.get(path)))
            assert r.status_code in (200, 302), (path, r.status_code)
    anon = Client(**https)
    for path in ("/", "/accounts/signup/", "/accounts/login/"):
        for _i in range(args.runs):
            t.time(f"{path} (signed out)", lambda path=path: anon.get(path))
    if args.compare:
        _compare(args, t, c, url)
    _logins(args, t, anna, https, maybe_profiled)
    t.print()
    if profiler is not None:
        out = ROOT / "test-artifacts" / f"profile-{args.profile.strip('/').replace('/', '-')}.html"
        out.parent.mkdir(exist_ok=True)
        out.write_text(profiler.output_html())
        print(profiler.output_text(unicode=False, color=False, show_all=False)[:12000])
        print(f"profile: {out}")


def _logins(
    args: argparse.Namespace,
    t: Timer,
    anna: Any,
    https: dict[str, Any],
    maybe_profiled: Callable[[str, Callable[[], Any]], Callable[[], Any]],
) -> None:
    """Logging in: the form's POST, each hasher in turn."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    User = get_user_model()
    from django.contrib.auth.hashers import make_password
    from django.utils.module_loading import import_string

    hashers = args.hasher or [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        settings.PASSWORD_HASHERS[0],
    ]
    # The first hasher's hash is what a login checks and keeps; another's is checked and then
    # re-hashed with the first (the upgrade every old password gets once).
    encoded = {h: make_password(PASSWORD, hasher=import_string(h)()) for h in hashers}
    for _i in range(args.logins):
        for h in hashers:
            User.objects.filter(pk=anna.pk).update(password=encoded[h])
            lc = Client(**https)
            lc.get("/accounts/login/")
            kept = "" if h == settings.PASSWORD_HASHERS[0] else ", re-hashed"
            r = t.time(
                f"login POST ({h.rsplit('.', 1)[-1]}{kept})",
                maybe_profiled(
                    "login",
                    lambda lc=lc: lc.post(
                        "/accounts/login/", {"login": "anna", "password": PASSWORD}
                    ),
                ),
            )
            assert r.status_code == 302, r.status_code


def _compare(args: argparse.Namespace, t: Timer, c: Any, url: str) -> None:
    """Each page as it was before this stop's change and as it is, alternated in one run (a
    shared machine's load falls on both alike): the profile's time-zone list with Django's
    Select (a template per option) and with ``LongSelect``; the game page's log sentences with
    every seat's link built for every sentence and with only the seats it names."""
    from django import forms

    from accounts.forms import ProfileForm
    from games.templatetags.names import player_link
    from games.web.cards import log as views

    zone = ProfileForm.base_fields["timezone"]
    new_widget = zone.widget

    def linked_before(text: str, names: Any, usernames: Any) -> Any:
        from django.utils.html import conditional_escape
        from django.utils.safestring import mark_safe

        out = str(conditional_escape(text))
        for seat, name in names.items():
            out = out.replace(views._mark(seat), str(player_link(name, usernames.get(seat))))
        return mark_safe(out)

    linked_after = views._linked
    for _i in range(max(args.runs, 5)):
        zone.widget = forms.Select(attrs={"translate": "no"})
        t.time("compare: profile, before (Select)", lambda: c.get("/accounts/profile/"))
        zone.widget = new_widget
        t.time("compare: profile, after (LongSelect)", lambda: c.get("/accounts/profile/"))
        views._linked = linked_before  # type: ignore[assignment]
        t.time("compare: game page, before (_linked)", lambda: c.get(url))
        views._linked = linked_after
        t.time("compare: game page, after (_linked)", lambda: c.get(url))


if __name__ == "__main__":
    main()
