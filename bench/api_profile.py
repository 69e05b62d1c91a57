"""Where the CPU of one API move cycle goes, in process (no HTTP server, no client threads).

    .venv/bin/python bench/api_profile.py [--cycles 2000] [--games 16] [--profile out.html]

Sets up like bench/api_bench.py (its own PostgreSQL database, production settings: DEBUG off,
persistent connections, throttles lifted), then plays the bench's games round robin by calling the
WSGI application directly, exactly as a gunicorn worker does: GET /state/ as the awaited seat, then
POST /moves/ with the first candidate the bench's policy picks. Prints the CPU time (this process:
Django and the psycopg client side) and the queries per cycle, and with --profile writes a
pyinstrument profile of the cycles.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import api_bench  # noqa: E402


def wsgi_call(app: Any, method: str, path: str, token: str, body: bytes | None = None) -> tuple:
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8917",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8917",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "HTTP_ACCEPT": "application/json",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body or b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if body is not None:
        environ["CONTENT_TYPE"] = "application/json"
        environ["CONTENT_LENGTH"] = str(len(body))
    status: list[str] = []

    def start_response(s: str, headers: list, exc_info: Any = None) -> None:
        status.append(s)

    result = app(environ, start_response)
    try:
        data = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return int(status[0].split()[0]), data


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cycles", type=int, default=2000)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--profile", default="", help="write a pyinstrument HTML profile here")
    ap.add_argument("--cprofile", default="", help="write a cProfile (CPU time) dump here")
    ap.add_argument("--queries", action="store_true", help="print the queries of one cycle")
    ap.add_argument("--no-emails", action="store_true", help="players without email (no outbox)")
    args = ap.parse_args()

    db_url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_api_profile"
    )
    api_bench.ensure_database(db_url)
    env = api_bench.bench_env(db_url)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import subprocess

    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    games = api_bench.create_games(args.games, emails=not args.no_emails)
    from django.db import connection as _c

    with _c.cursor() as cursor:  # planner statistics, as autovacuum keeps them in production
        cursor.execute("ANALYZE")
    exp = os.environ.get("PROFILE_EXPERIMENT")
    if exp:  # a throwaway hook for trying variants: python code run after django.setup()
        exec(Path(exp).read_text(), {})
    import orjson
    from django.db import connection, reset_queries

    from config.wsgi import application

    to_act = {}
    for g in games:
        _st, data = wsgi_call(application, "GET", f"/api/v1/games/{g['id']}/", g["tokens"][0])
        to_act[g["id"]] = orjson.loads(data)["to_act"]

    def cycle(g: dict[str, Any]) -> bool:
        gid = g["id"]
        if not to_act[gid]:
            return False
        seat = to_act[gid][0]
        tok = g["tokens"][seat]
        st, data = wsgi_call(application, "GET", f"/api/v1/games/{gid}/state/", tok)
        assert st == 200, data
        state = orjson.loads(data)
        for action in api_bench.choose(state):
            body = orjson.dumps({"action": action, "expected_seq": state["seq"]})
            st, data = wsgi_call(application, "POST", f"/api/v1/games/{gid}/moves/", tok, body)
            if st == 201:
                to_act[gid] = orjson.loads(data)["to_act"]
                return True
        raise RuntimeError("no candidate accepted")

    def run(n: int) -> int:
        done = 0
        i = 0
        while done < n:
            g = games[i % len(games)]
            i += 1
            if cycle(g):
                done += 1
            elif all(not v for v in to_act.values()):
                break
        return done

    run(args.warmup)
    if args.queries:
        from django.conf import settings

        settings.DEBUG = True
        reset_queries()
        run(1)
        for q in connection.queries:
            print(f"{q['time']}  {q['sql'][:300]}")
        settings.DEBUG = False
        return
    profiler = None
    if args.profile:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0002)
        profiler.start()
    cprof = None
    if args.cprofile:
        import cProfile

        cprof = cProfile.Profile(time.process_time)
        cprof.enable()
    c0, t0 = time.process_time(), time.perf_counter()
    n = run(args.cycles)
    c1, t1 = time.process_time(), time.perf_counter()
    if cprof is not None:
        cprof.disable()
        cprof.dump_stats(args.cprofile)
    if profiler is not None:
        profiler.stop()
        Path(args.profile).write_text(profiler.output_html())
        print(profiler.output_text(unicode=False, color=False, show_all=False))
    print(
        f"{n} cycles (GET state + POST move): {(c1 - c0) / n * 1000:.2f} ms CPU and "
        f"{(t1 - t0) / n * 1000:.2f} ms wall per cycle in this process"
    )


if __name__ == "__main__":
    main()
