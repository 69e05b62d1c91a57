"""API benchmark: 16 clients playing bot games through the REST API against gunicorn + PostgreSQL.

    .venv/bin/python bench/api_bench.py [--clients 16] [--workers N] [--threads N] [--seconds 90]

Prints figures, asserts nothing (a benchmark, not a test). What it does:

1. Uses its own PostgreSQL database (``bench_api`` on 127.0.0.1, created if missing; override
   with BENCH_DATABASE_URL), migrates it, creates users, tokens and one 4-player game per client.
2. Starts gunicorn with the production config, deploy/gunicorn.conf.py (its worker count and class
   unless --workers/--threads say otherwise; access log to var/bench-access.log), DEBUG off, the
   settings' production database defaults (persistent connections, health checks), throttles
   lifted, BENCH_ENDPOINTS=1, Redis as the Celery broker when it answers (no worker consumes, the
   queue is purged at the end).
3. Phase "play": each client thread plays its game through the API only: GET state as the awaited
   seat, pick a move from ``legal`` (a simple legal-only policy that builds slowly, so games pass
   move 400), POST it with ``expected_seq``. Measures POST /moves/ and GET /state/ latency,
   the latter bucketed by the game's seq (move 4 against move 400). One client cycle per move is
   therefore: GET state, parse it, choose, POST, parse the 201 (Little's law: 16 clients at R
   moves/s leave 16/R seconds per cycle for both requests and the client's own work).
4. Phase "floor": the same clients POST /api/bench/insert/ (one authenticated DRF request that
   inserts one row) for a few seconds: the cost floor the move endpoint is compared with.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PORT = 8917
PLAYERS = 4


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def fmt(values: list[float]) -> str:
    if not values:
        return "n=0"
    return (
        f"n={len(values):6d}  p50={pct(values, 50) * 1000:6.2f} ms  "
        f"p90={pct(values, 90) * 1000:6.2f} ms  p99={pct(values, 99) * 1000:6.2f} ms  "
        f"mean={statistics.fmean(values) * 1000:6.2f} ms"
    )


# ------------------------------------------------------------------ set-up
def bench_env(db_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=db_url,
        DEBUG="False",
        SECRET_KEY="bench-only-secret-key-bench-only-secret-key",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        BENCH_ENDPOINTS="True",
        API_THROTTLE_USER="10000000/min",
        API_THROTTLE_ANON="10000000/min",
        API_THROTTLE_TOKEN_CREATE="10000000/min",
        LOG_LEVEL="WARNING",
        SESSION_COOKIE_SECURE="False",
        CSRF_COOKIE_SECURE="False",
    )
    if _redis_answers():
        env["CELERY_BROKER_URL"] = "redis://127.0.0.1:6379/15"
    else:
        env["CELERY_BROKER_URL"] = "memory://"
    return env


def _redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis(host="127.0.0.1", port=6379, db=15, socket_timeout=1).ping())
    except Exception:
        return False


def ensure_database(db_url: str) -> None:
    import psycopg

    name = db_url.rsplit("/", 1)[1]
    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as c:
        exists = c.execute("SELECT 1 FROM pg_database WHERE datname=%s", (name,)).fetchone()
        if not exists:
            c.execute(f'CREATE DATABASE "{name}"')


def create_games(clients: int, early_moves: int = 0) -> list[dict[str, Any]]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from games import engine, services

    User = get_user_model()
    stamp = int(time.time())
    games = []
    for g in range(clients):
        users, tokens = [], []
        for s in range(PLAYERS):
            u = User.objects.create_user(username=f"b{stamp}_{g}_{s}", password=None)
            _, tok = AuthToken.objects.create(user=u, expiry=None)
            users.append(u)
            tokens.append(tok)
        game = services.game_create(creator=users[0], map="germany", max_players=PLAYERS)
        for u in users[1:]:
            services.game_join(game_id=game.pk, user=u)
        game = services.game_start(game_id=game.pk, user=users[0])
        for _ in range(early_moves):
            game.refresh_from_db()
            seat = game.to_act[0]
            state = engine.from_json(game.state_json)
            services.move_apply_system(
                game=game, seat=seat, action=engine.default_action(state, seat), source="bot"
            )
        seat_of = {s.user_id: s.seat for s in game.seats.all()}
        games.append(
            {
                "id": game.pk,
                "tokens": {seat_of[u.pk]: t for u, t in zip(users, tokens, strict=True)},
            }
        )
    return games


# ------------------------------------------------------------------ the client's policy
def choose(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Candidate actions, best first, from ``legal`` only (a client sees nothing else)."""
    legal = {e["type"]: e for e in state["legal"]}
    me = next(p for p in state["players"] if p["seat"] == state["seat"])
    money = me["money"] or 0
    out: list[dict[str, Any]] = []
    if "discard_plant" in legal:
        for plant in legal["discard_plant"]["plants"]:
            out.append({"type": "discard_plant", "plant": plant})
            out.append({"type": "discard_plant", "plant": plant, "drop": _all_stored(me, plant)})
        return out
    if "choose_plant" in legal:
        e = legal["choose_plant"]
        plants = sorted(e["plants"], key=lambda p: p["min_bid"])
        owned = len(me["plants"])
        if "pass_auction" in legal and (owned >= 2 or state["round"] % 3):
            out.append({"type": "pass_auction"})
        for p in plants:
            if p["min_bid"] <= min(money, e.get("max_bid", money)):
                out.append({"type": "choose_plant", "plant": p["number"], "bid": p["min_bid"]})
        if "pass_auction" in legal:
            out.append({"type": "pass_auction"})
        return out
    if "pass_bid" in legal:
        return [{"type": "pass_bid"}]
    if "buy_resources" in legal:
        mx = legal["buy_resources"]["max"]
        buy = {r: n for r, n in mx.items() if n > 0}
        if buy:
            r, n = max(buy.items(), key=lambda kv: kv[1])
            out.append({"type": "buy_resources", r: min(n, 2)})
            out.append({"type": "buy_resources", r: 1})
        out.append({"type": "buy_resources"})
        return out
    if "build" in legal:
        cities = legal["build"]["cities"]
        # Build slowly (one city on even rounds) so games run past move 400.
        if cities and (state["round"] % 2 == 0 or not me["cities"]):
            city, cost = min(cities.items(), key=lambda kv: kv[1])
            if cost <= money:
                out.append({"type": "build", "cities": [city]})
        out.append({"type": "build", "cities": []})
        return out
    if "power" in legal:
        return [{"type": "power"}, {"type": "power", "plants": []}]
    return [{"type": t} for t in legal]


def _all_stored(me: dict[str, Any], plant: int) -> dict[str, int]:
    for p in me["plants"]:
        if p.get("number") == plant:
            return {k: v for k, v in (p.get("stored") or {}).items() if v}
    return {}


# ------------------------------------------------------------------ clients
class Client:
    def __init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)

    def request(
        self, method: str, path: str, token: str, body: Any = None
    ) -> tuple[int, Any, float]:
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        for attempt in range(3):
            try:
                t0 = time.perf_counter()
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                dt = time.perf_counter() - t0
                if resp.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                return resp.status, (json.loads(raw) if raw else None), dt
            except (http.client.HTTPException, ConnectionError, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
                if attempt == 2:
                    raise
        raise RuntimeError("unreachable")


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.moves: list[float] = []
        self.rejected: list[float] = []
        self.state_by_seq: dict[int, list[float]] = {}
        self.floor: list[float] = []
        self.errors: dict[str, int] = {}
        self.finished = 0
        self.max_seq = 0


def play(game: dict[str, Any], stats: Stats, stop_at: float) -> None:
    c = Client()
    gid = game["id"]
    tokens = game["tokens"]
    any_token = tokens[0]
    status, detail, _ = c.request("GET", f"/api/v1/games/{gid}/", any_token)
    to_act = detail["to_act"]
    while time.time() < stop_at and to_act:
        seat = to_act[0]
        status, state, dt = c.request("GET", f"/api/v1/games/{gid}/state/", tokens[seat])
        with stats.lock:
            stats.state_by_seq.setdefault(state["seq"], []).append(dt)
        for action in choose(state):
            status, body, dt = c.request(
                "POST",
                f"/api/v1/games/{gid}/moves/",
                tokens[seat],
                {"action": action, "expected_seq": state["seq"]},
            )
            if status == 201:
                with stats.lock:
                    stats.moves.append(dt)
                    stats.max_seq = max(stats.max_seq, body["seq"])
                to_act = body["to_act"]
                break
            with stats.lock:
                stats.rejected.append(dt)
                code = (body or {}).get("error", {}).get("code", str(status))
                stats.errors[code] = stats.errors.get(code, 0) + 1
        else:
            raise RuntimeError(f"game {gid}: no candidate accepted at seq {state['seq']}")
        if body.get("phase") == "finished":
            with stats.lock:
                stats.finished += 1
            break


def floor(token: str, stats: Stats, stop_at: float) -> None:
    c = Client()
    i = 0
    while time.time() < stop_at:
        status, _body, dt = c.request("POST", "/api/bench/insert/", token, {"value": i})
        if status != 201:
            raise RuntimeError(f"floor endpoint answered {status}")
        i += 1
        with stats.lock:
            stats.floor.append(dt)


# ------------------------------------------------------------------ where the CPU went (/proc)
def _loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def _gunicorn_shape(genv: dict[str, str]) -> tuple[int, int]:
    """(workers, threads) as deploy/gunicorn.conf.py will compute them from ``genv``."""
    saved = dict(os.environ)
    os.environ.update(genv)
    try:
        ns: dict[str, Any] = {}
        exec((ROOT / "deploy" / "gunicorn.conf.py").read_text(), ns)
        return int(ns["workers"]), int(ns["threads"])
    finally:
        os.environ.clear()
        os.environ.update(saved)


def cpu_snapshot(server_pid: int, db_url: str) -> dict[str, float]:
    """CPU seconds used so far by: this process (the clients), gunicorn (master and workers),
    PostgreSQL backends of the bench database, and the whole machine (busy time of all CPUs)."""
    tick = os.sysconf("SC_CLK_TCK")
    dbname = db_url.rsplit("/", 1)[1]
    out = {"clients": 0.0, "gunicorn": 0.0, "postgres": 0.0, "machine": 0.0}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            used = (int(fields[11]) + int(fields[12])) / tick
            ppid = int(fields[1])
            if int(pid) == os.getpid():
                out["clients"] += used
            elif int(pid) == server_pid or ppid == server_pid:
                out["gunicorn"] += used
            elif "postgres" in stat[: stat.rindex(")")]:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
                if f" {dbname} ".encode() in cmd:
                    out["postgres"] += used
        except (OSError, ValueError, IndexError):
            continue
    cpu = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    busy = sum(int(x) for x in cpu) - int(cpu[3]) - int(cpu[4])  # all but idle and iowait
    out["machine"] = busy / tick
    return out


def cpu_diff(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {k: b[k] - a[k] for k in a}


def cpu_report(d: dict[str, float], seconds: float, n: int, what: str) -> str:
    if not n or seconds <= 0:
        return "n/a"
    other = d["machine"] - d["clients"] - d["gunicorn"] - d["postgres"]
    per = {k: v / n * 1000 for k, v in d.items()}
    return (
        f"machine busy {d['machine'] / seconds:.2f} of {os.cpu_count()} CPUs; per {what}: "
        f"gunicorn {per['gunicorn']:.2f} ms, postgres {per['postgres']:.2f} ms, bench clients "
        f"{per['clients']:.2f} ms, everything else on the machine {other / n * 1000:.2f} ms"
    )


def run_threads(target: Any, args_list: list[tuple[Any, ...]]) -> float:
    threads = [threading.Thread(target=target, args=a) for a in args_list]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--workers", type=int, default=0, help="default: deploy/gunicorn.conf.py's")
    ap.add_argument("--threads", type=int, default=0, help="default: deploy/gunicorn.conf.py's")
    ap.add_argument("--seconds", type=float, default=90.0, help="cap on the play phase")
    ap.add_argument("--floor-seconds", type=float, default=15.0)
    args = ap.parse_args()

    load_start = _loadavg()
    db_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_api")
    ensure_database(db_url)
    env = bench_env(db_url)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    py = sys.executable
    subprocess.run(
        [py, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    games = create_games(args.clients)
    probe = create_games(1, early_moves=4)[0]  # a game kept at move 4

    gunicorn = [
        str(Path(py).parent / "gunicorn"), "config.wsgi:application",
        "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
    ]  # fmt: skip
    genv = dict(
        env,
        GUNICORN_BIND=f"127.0.0.1:{PORT}",
        GUNICORN_ACCESSLOG=str(ROOT / "var" / "bench-access.log"),
        GUNICORN_LOG_LEVEL="warning",
    )
    if args.workers:
        genv["WEB_CONCURRENCY"] = str(args.workers)
    if args.threads:
        genv["GUNICORN_THREADS"] = str(args.threads)
    workers, threads = _gunicorn_shape(genv)
    server = subprocess.Popen(gunicorn, cwd=ROOT, env=genv)
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request(
                    "GET", "/api/v1/maps/"
                )
                break
            except OSError:
                time.sleep(0.2)
        time.sleep(1.0)
        # Warm up every worker (imports, caches, connections).
        for _ in range(workers * 8):
            Client().request("GET", "/api/v1/maps/", games[0]["tokens"][0])

        stats = Stats()
        stop_at = time.time() + args.seconds
        cpu0 = cpu_snapshot(server.pid, db_url)
        play_time = run_threads(play, [(g, stats, stop_at) for g in games])
        play_cpu = cpu_diff(cpu0, cpu_snapshot(server.pid, db_url))
        # State read cost against seq, measured alone (no other load from this bench):
        # the game at move 4 against the game that went furthest, alternating.
        c = Client()
        longest = max(
            games,
            key=lambda g: c.request("GET", f"/api/v1/games/{g['id']}/", g["tokens"][0])[1]["seq"],
        )
        long_seq = c.request("GET", f"/api/v1/games/{longest['id']}/", longest["tokens"][0])[1][
            "seq"
        ]
        seq_probe: dict[str, list[float]] = {"early": [], "late": []}
        for _ in range(200):
            for key, g in (("early", probe), ("late", longest)):
                _s, _b, dt = c.request("GET", f"/api/v1/games/{g['id']}/state/", g["tokens"][0])
                seq_probe[key].append(dt)
        floor_stop = time.time() + args.floor_seconds
        cpu0 = cpu_snapshot(server.pid, db_url)
        floor_time = run_threads(
            floor, [(games[i]["tokens"][0], stats, floor_stop) for i in range(args.clients)]
        )
        floor_cpu = cpu_diff(cpu0, cpu_snapshot(server.pid, db_url))
    finally:
        server.terminate()
        server.wait(timeout=20)
        if env["CELERY_BROKER_URL"].startswith("redis"):
            import redis

            redis.Redis(host="127.0.0.1", port=6379, db=15).flushdb()

    early = [v for s, vs in stats.state_by_seq.items() if s <= 10 for v in vs]
    late_from = max(0, min(400, stats.max_seq) - 30)
    late = [v for s, vs in stats.state_by_seq.items() if s >= late_from for v in vs]
    all_states = [v for vs in stats.state_by_seq.values() for v in vs]
    print()
    print(f"API benchmark: {args.clients} clients, gunicorn (deploy/gunicorn.conf.py) {workers} "
          f"{'gthread' if threads > 1 else 'sync'} workers x {threads} threads, PostgreSQL, "
          f"broker {env['CELERY_BROKER_URL'].split(':')[0]}, {os.cpu_count()} CPUs "
          f"(shared machine)")  # fmt: skip
    print(f"load average at start {load_start}, at end {_loadavg()}")
    print(f"play phase: {play_time:.1f} s, {len(stats.moves)} moves accepted, "
          f"{len(stats.moves) / play_time:.1f} moves/s, {stats.finished} games finished, "
          f"highest seq {stats.max_seq}")  # fmt: skip
    print(f"  CPU while playing: {cpu_report(play_cpu, play_time, len(stats.moves), 'move')}")
    print(f"  POST moves (201)        {fmt(stats.moves)}")
    print(f"  POST moves (refused)    {fmt(stats.rejected)}  {stats.errors}")
    print(f"  GET state (all)         {fmt(all_states)}")
    print(f"  GET state seq <= 10     {fmt(early)}")
    print(f"  GET state seq >= {late_from:<4}   {fmt(late)}")
    if early and late:
        print(f"  state late/early p50 ratio: {pct(late, 50) / pct(early, 50):.2f}")
    print(f"state read alone, 200 each: move 4 {fmt(seq_probe['early'])}")
    print(f"                            move {long_seq} {fmt(seq_probe['late'])}")
    print(f"  state move {long_seq} / move 4 p50 ratio: "
          f"{pct(seq_probe['late'], 50) / pct(seq_probe['early'], 50):.2f}")  # fmt: skip
    print(f"floor phase: {floor_time:.1f} s, {len(stats.floor) / floor_time:.1f} req/s")
    print(f"  CPU: {cpu_report(floor_cpu, floor_time, len(stats.floor), 'request')}")
    print(f"  POST bench/insert       {fmt(stats.floor)}")
    if stats.floor and stats.moves:
        print(f"  move/floor p50 ratio: {pct(stats.moves, 50) / pct(stats.floor, 50):.2f}")


if __name__ == "__main__":
    main()
