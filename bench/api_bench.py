"""API benchmark: 16 clients playing bot games through the REST API against gunicorn + PostgreSQL.

    .venv/bin/python bench/api_bench.py [--clients 16] [--seconds 40] [--rate 200]
        [--open-seconds 40] [--floor-seconds 10] [--client-procs 4] [--workers N] [--threads N]

Prints figures, asserts nothing (a benchmark, not a test). What it does:

1. Uses its own PostgreSQL database (``bench_api`` on 127.0.0.1, created if missing; override
   with BENCH_DATABASE_URL), migrates it, creates users (with email addresses, so every move
   writes the outbox and publishes its sending task as in production), tokens and one 4-player
   game per client for each phase.
2. Starts gunicorn with the production config, deploy/gunicorn.conf.py (its worker count and class
   unless --workers/--threads say otherwise; access log to var/bench-access.log), DEBUG off, the
   settings' production database defaults (persistent connections, health checks), throttles
   lifted, BENCH_ENDPOINTS=1, Redis as the Celery broker when it answers (no worker consumes, the
   queue is purged at the end).
3. The clients run in --client-procs processes (threads inside), so one Python process's GIL does
   not hold back reading responses (which would delay the sync workers' close of each
   connection and inflate every latency). Each client plays its own game through the API only:
   GET state as the awaited seat, pick a move from ``legal`` (a simple legal-only policy that
   builds slowly, so games pass move 400), POST it with ``expected_seq``. One move is therefore a
   cycle of two requests: GET state, then POST move.
4. Phase "closed" (saturation, --seconds; 0 skips it): each client starts its next cycle as soon
   as the last one ended. Gives the most moves/s the stack does, and the latencies at that load
   (Little's law: 16 clients at R moves/s leave 16/R seconds per cycle for both requests).
5. Phase "open" (paced, --rate moves/s offered in total, --open-seconds; 0 skips it), on fresh
   games: each client has its own schedule, one cycle every clients/rate seconds from a random
   phase, independent of how the server answers. A request's latency is counted from the time
   its cycle was SCHEDULED to start (plus the GET's time for the POST): a client running late
   because the server was slow carries that delay into every later request, so coordinated
   omission does not hide queueing. The phase ends on time: cycles that fell due but had not
   started by then are counted as offered and not done. Reports whether the rate was sustained
   (at least 95 % of the offered moves done and the clients' start lag p99 under one cycle
   period) — when it was not, the latencies describe only the moves that were made, and the
   lag shows how far behind the clients fell.
6. Phase "floor": the same clients POST /api/bench/insert/ (one authenticated DRF request that
   inserts one row): closed loop for --floor-seconds, then (with --rate) paced at --rate
   requests/s in total, so the move is compared with the floor at the same load in each mode.
7. State reads alone at move 4 and at the longest game's move, to show a read does not grow with
   the game.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
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


def create_games(clients: int, early_moves: int = 0, emails: bool = True) -> list[dict[str, Any]]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from games import engine, services

    User = get_user_model()
    stamp = time.time_ns()
    games = []
    for g in range(clients):
        users, tokens = [], []
        for s in range(PLAYERS):
            name = f"b{stamp}_{g}_{s}"
            u = User.objects.create_user(
                username=name, email=f"{name}@bench.invalid" if emails else "", password=None
            )
            _, tok = AuthToken.objects.create(user=u, expiry=None)
            users.append(u)
            tokens.append(tok)
        game = services.game_create(creator=users[0], map="germany", max_players=PLAYERS)
        for u in users[1:]:
            services.game_join(game_id=game.pk, user=u)
        game.refresh_from_db()  # the last join started it (auto_start)
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
    """What one client process measured; merged by the parent (lists concatenated)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.moves: list[float] = []  # POST /moves/ 201: response time
        self.moves_sched: list[float] = []  # ... counted from the cycle's scheduled start (open)
        self.move_done: list[float] = []  # wall-clock time each accepted move was answered
        self.rejected: list[float] = []
        self.states: list[tuple[int, float]] = []  # (seq, GET /state/ response time)
        self.lag: list[float] = []  # open loop: how late each cycle started against schedule
        self.floor: list[float] = []
        self.floor_sched: list[float] = []
        self.errors: dict[str, int] = {}
        self.finished = 0
        self.max_seq = 0
        self.offered = 0  # open loop: cycles that were due before the phase ended

    def export(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "lock"}

    def merge(self, d: dict[str, Any]) -> None:
        for k, v in d.items():
            if isinstance(v, list):
                getattr(self, k).extend(v)
            elif isinstance(v, dict):
                mine = getattr(self, k)
                for kk, vv in v.items():
                    mine[kk] = mine.get(kk, 0) + vv
            elif k == "max_seq":
                self.max_seq = max(self.max_seq, v)
            else:
                setattr(self, k, getattr(self, k) + v)


def _schedule(interval: float, start_at: float) -> Any:
    """Scheduled start times: one every ``interval`` seconds from a random phase."""
    t = start_at + random.uniform(0, interval)
    while True:
        yield t
        t += interval


def _next_cycle(sched: Any, stats: Stats, stop_at: float) -> float | None:
    """Wait for the next cycle: how late it starts against its schedule (0.0 in closed loop), or
    None when the phase is over. Open loop: a cycle due in the phase but reached only after it
    counts as offered, not done (a server that falls behind cannot hide it)."""
    if sched is None:
        return None if time.time() >= stop_at else 0.0
    while True:
        due = next(sched)
        if due >= stop_at:
            return None
        with stats.lock:
            stats.offered += 1
        now = time.time()
        if now >= stop_at:
            continue
        if due > now:
            time.sleep(due - now)
        return max(0.0, time.time() - due)


def play(
    game: dict[str, Any], stats: Stats, start_at: float, stop_at: float, interval: float | None
) -> None:
    """Play ``game``: closed loop (``interval`` None) or one cycle per ``interval`` seconds."""
    c = Client()
    gid = game["id"]
    tokens = game["tokens"]
    _status, detail, _ = c.request("GET", f"/api/v1/games/{gid}/", tokens[0])
    to_act = detail["to_act"]
    sched = _schedule(interval, start_at) if interval else None
    while to_act:
        lag = _next_cycle(sched, stats, stop_at)
        if lag is None:
            break
        seat = to_act[0]
        status, state, dt_state = c.request("GET", f"/api/v1/games/{gid}/state/", tokens[seat])
        with stats.lock:
            stats.states.append((state["seq"], dt_state))
            if sched is not None:
                stats.lag.append(lag)
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
                    if sched is not None:
                        stats.moves_sched.append(lag + dt_state + dt)
                    stats.move_done.append(time.time())
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


def floor(
    token: str, stats: Stats, start_at: float, stop_at: float, interval: float | None
) -> None:
    c = Client()
    sched = _schedule(interval, start_at) if interval else None
    i = 0
    while True:
        lag = _next_cycle(sched, stats, stop_at)
        if lag is None:
            break
        status, _body, dt = c.request("POST", "/api/bench/insert/", token, {"value": i})
        if status != 201:
            raise RuntimeError(f"floor endpoint answered {status}")
        i += 1
        with stats.lock:
            stats.floor.append(dt)
            if sched is not None:
                stats.floor_sched.append(lag + dt)
                stats.lag.append(lag)


def _client_proc(target: Any, args_list: list[tuple[Any, ...]], out: Any) -> None:
    stats = Stats()
    threads = [threading.Thread(target=target, args=(a[0], stats, *a[1:])) for a in args_list]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(stats.export())


def run_clients(target: Any, args_list: list[tuple[Any, ...]], procs: int) -> tuple[Stats, float]:
    """Run ``target(first_arg, stats, *rest)`` for each args tuple, the tuples spread over
    ``procs`` forked processes (threads inside); returns the merged stats and the wall time."""
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = max(1, min(procs, len(args_list)))
    chunks = [args_list[i::procs] for i in range(procs)]
    t0 = time.perf_counter()
    ps = [ctx.Process(target=_client_proc, args=(target, ch, out)) for ch in chunks]
    for p in ps:
        p.start()
    merged = Stats()
    for _ in ps:
        merged.merge(out.get())
    for p in ps:
        p.join()
        if p.exitcode != 0:
            raise RuntimeError(f"a client process failed (exit code {p.exitcode})")
    return merged, time.perf_counter() - t0


def outbox_drain(db_url: str, stop: threading.Event) -> None:
    """Stand in for the Celery worker (none runs: its CPU would be the bench's): every 0.5 s mark
    the pending rows sent and release the turn notices' keys as a claim does, so each move writes
    its outbox row as in production instead of meeting a pending one."""
    import psycopg

    name = db_url.rsplit("/", 1)[1]
    with psycopg.connect(f"host=127.0.0.1 user=postgres dbname={name}", autocommit=True) as c:
        while not stop.wait(0.5):
            c.execute(
                "UPDATE games_notification SET status = 'sent', sent_at = now(), "
                "dedupe_key = CASE WHEN kind = 'turn' THEN NULL ELSE dedupe_key END "
                "WHERE status = 'pending'"
            )


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
    """CPU seconds used so far by: this process and its client processes (the clients), gunicorn
    (master and workers), PostgreSQL backends of the bench database, and the whole machine (busy
    time of all CPUs). A client process that has exited is not counted (snapshots are taken
    while none runs, or around whole phases: see ``phase_cpu``)."""
    tick = os.sysconf("SC_CLK_TCK")
    dbname = db_url.rsplit("/", 1)[1]
    me = os.getpid()
    out = {"clients": 0.0, "gunicorn": 0.0, "postgres": 0.0, "machine": 0.0}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            used = (int(fields[11]) + int(fields[12])) / tick
            ppid = int(fields[1])
            if int(pid) == me:
                # Our own time plus that of the client processes we have waited for.
                out["clients"] += used + (int(fields[13]) + int(fields[14])) / tick
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


def phase(
    server_pid: int, db_url: str, target: Any, args_list: list[tuple[Any, ...]], procs: int
) -> tuple[Stats, float, dict[str, float]]:
    cpu0 = cpu_snapshot(server_pid, db_url)
    stats, wall = run_clients(target, args_list, procs)
    return stats, wall, cpu_diff(cpu0, cpu_snapshot(server_pid, db_url))


def _rate_series(done: list[float], start: float, seconds: float, step: float = 5.0) -> str:
    if not done:
        return "-"
    buckets = [0] * max(1, int(seconds // step))  # whole buckets only
    for t in done:
        i = int((t - start) // step)
        if 0 <= i < len(buckets):
            buckets[i] += 1
    return " ".join(f"{n / step:.0f}" for n in buckets)


def report_moves(
    title: str,
    stats: Stats,
    wall: float,
    cpu: dict[str, float],
    started: float,
    rate: float | None = None,
) -> None:
    n = len(stats.moves)
    # The rate over the phase itself (from its start to the last answer), not the processes' set-up.
    span = max(stats.move_done or [started + wall]) - started
    print(f"{title}: {span:.1f} s, {n} moves accepted, {n / span:.1f} moves/s, "
          f"{stats.finished} games finished, highest seq {stats.max_seq}")  # fmt: skip
    print(f"  moves/s every 5 s: {_rate_series(stats.move_done, started, span)}")
    if rate:
        lag = stats.lag
        sustained = n >= 0.95 * stats.offered and pct(lag, 99) < 16 / rate
        print(f"  offered {rate:.0f} moves/s: {stats.offered} cycles due, {n} moves done "
              f"({n / max(1, stats.offered) * 100:.0f}%); client start lag behind schedule "
              f"p50 {pct(lag, 50) * 1000:.1f} ms, p99 {pct(lag, 99) * 1000:.1f} ms, "
              f"max {max(lag or [0]) * 1000:.0f} ms -> rate "
              f"{'SUSTAINED' if sustained else 'NOT sustained'}")  # fmt: skip
    print(f"  CPU: {cpu_report(cpu, wall, n, 'move (GET state + POST move)')}")
    print(f"  POST moves (201)        {fmt(stats.moves)}")
    if rate:
        print(f"  POST moves from sched.  {fmt(stats.moves_sched)}")
    print(f"  POST moves (refused)    {fmt(stats.rejected)}  {stats.errors}")
    states = [dt for _s, dt in stats.states]
    early = [dt for s, dt in stats.states if s <= 10]
    late_from = max(0, min(400, stats.max_seq) - 30)
    late = [dt for s, dt in stats.states if s >= late_from]
    print(f"  GET state (all)         {fmt(states)}")
    print(f"  GET state seq <= 10     {fmt(early)}")
    print(f"  GET state seq >= {late_from:<4}   {fmt(late)}")
    if early and late:
        print(f"  state late/early p50 ratio: {pct(late, 50) / pct(early, 50):.2f}")


def report_floor(
    title: str, stats: Stats, wall: float, cpu: dict[str, float], rate: float | None = None
) -> None:
    n = len(stats.floor)
    print(f"{title}: {wall:.1f} s, {n / wall:.1f} req/s")
    if rate:
        print(f"  offered {rate:.0f} req/s: {stats.offered} due, {n} done "
              f"({n / max(1, stats.offered) * 100:.0f}%); client lag p99 "
              f"{pct(stats.lag, 99) * 1000:.1f} ms")  # fmt: skip
    print(f"  CPU: {cpu_report(cpu, wall, n, 'request')}")
    print(f"  POST bench/insert       {fmt(stats.floor)}")
    if rate:
        print(f"  POST insert from sched. {fmt(stats.floor_sched)}")


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--workers", type=int, default=0, help="default: deploy/gunicorn.conf.py's")
    ap.add_argument("--threads", type=int, default=0, help="default: deploy/gunicorn.conf.py's")
    ap.add_argument("--seconds", type=float, default=40.0, help="closed-loop phase; 0 skips it")
    ap.add_argument("--rate", type=float, default=200.0, help="open loop: moves/s offered")
    ap.add_argument("--open-seconds", type=float, default=40.0, help="open phase; 0 skips it")
    ap.add_argument("--floor-seconds", type=float, default=10.0)
    ap.add_argument("--client-procs", type=int, default=4, help="processes for the clients")
    ap.add_argument(
        "--no-emails", action="store_true", help="players without email (no outbox, no publish)"
    )
    return ap.parse_args()


def _server_up(workers: int, token: str) -> None:
    """Wait for gunicorn to answer, then warm up every worker (imports, caches, connections)."""
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request("GET", "/api/v1/maps/")
            break
        except OSError:
            time.sleep(0.2)
    time.sleep(1.0)
    for _ in range(workers * 8):
        Client().request("GET", "/api/v1/maps/", token)


def _state_reads(
    played: list[dict[str, Any]], probe: dict[str, Any]
) -> tuple[dict[int, int], dict[str, Any], dict[str, list[float]]]:
    """State read cost against seq, measured alone (no other load from this bench): the game
    at move 4 against the game that went furthest, alternating. (Each game's seq, the game that
    went furthest, the read times of each.)"""
    c = Client()
    seqs = {
        g["id"]: c.request("GET", f"/api/v1/games/{g['id']}/", g["tokens"][0])[1]["seq"]
        for g in played
    }
    longest = max(played, key=lambda g: seqs[g["id"]]) if played else probe
    seq_probe: dict[str, list[float]] = {"early": [], "late": []}
    for _ in range(200):
        for key, g in (("early", probe), ("late", longest)):
            _s, _b, dt = c.request("GET", f"/api/v1/games/{g['id']}/state/", g["tokens"][0])
            seq_probe[key].append(dt)
    return seqs, longest, seq_probe


def main() -> None:
    args = _args()
    emails = not args.no_emails
    rate = args.rate if args.open_seconds > 0 and args.rate > 0 else None

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
    closed_games = create_games(args.clients, emails=emails) if args.seconds > 0 else []
    open_games = create_games(args.clients, emails=emails) if rate else []
    probe = create_games(1, early_moves=4, emails=emails)[0]  # a game kept at move 4
    from django.db import connection

    with connection.cursor() as cursor:  # planner statistics, as autovacuum keeps in production
        cursor.execute("ANALYZE")
    any_games = closed_games or open_games or [probe]
    from django.db import connections

    connections.close_all()  # the client processes are forked: they must not share it

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
    procs = args.client_procs
    drain_stop = threading.Event()
    drain = threading.Thread(target=outbox_drain, args=(db_url, drain_stop), daemon=True)
    drain.start()
    results: dict[str, Any] = {}
    try:
        _server_up(workers, any_games[0]["tokens"][0])

        def play_phase(games: list[dict[str, Any]], seconds: float, interval: float | None):
            start = time.time() + 0.5  # every client process is up by then
            stop = start + seconds
            argl = [(g, start, stop, interval) for g in games]
            return (*phase(server.pid, db_url, play, argl, procs), start)

        if closed_games:
            results["closed"] = play_phase(closed_games, args.seconds, None)
        if rate:
            results["open"] = play_phase(open_games, args.open_seconds, args.clients / rate)
        seqs, longest, seq_probe = _state_reads(closed_games + open_games, probe)
        tokens = [any_games[i % len(any_games)]["tokens"][0] for i in range(args.clients)]

        def floor_phase(seconds: float, interval: float | None):
            start = time.time() + 0.5
            argl = [(t, start, start + seconds, interval) for t in tokens]
            return phase(server.pid, db_url, floor, argl, procs)

        if args.floor_seconds > 0:
            results["floor_closed"] = floor_phase(args.floor_seconds, None)
            if rate:
                results["floor_open"] = floor_phase(args.floor_seconds, args.clients / rate)
    finally:
        drain_stop.set()
        server.terminate()
        server.wait(timeout=20)
        if env["CELERY_BROKER_URL"].startswith("redis"):
            import redis

            redis.Redis(host="127.0.0.1", port=6379, db=15).flushdb()

    print()
    print(f"API benchmark: {args.clients} clients in {procs} processes, gunicorn "
          f"(deploy/gunicorn.conf.py) {workers} {'gthread' if threads > 1 else 'sync'} workers "
          f"x {threads} threads, PostgreSQL, broker {env['CELERY_BROKER_URL'].split(':')[0]}, "
          f"{os.cpu_count()} CPUs (shared machine); players "
          f"{'with' if emails else 'without'} email")  # fmt: skip
    print(f"load average at start {load_start}, at end {_loadavg()}")
    if "closed" in results:
        report_moves("closed loop (saturation)", *results["closed"])
    if "open" in results:
        report_moves(f"open loop at {rate:.0f} moves/s offered", *results["open"], rate=rate)
    print(f"state read alone, 200 each: move 4 {fmt(seq_probe['early'])}")
    print(f"                            move {seqs.get(longest['id'], 0)} "
          f"{fmt(seq_probe['late'])}")  # fmt: skip
    print(f"  state move {seqs.get(longest['id'], 0)} / move 4 p50 ratio: "
          f"{pct(seq_probe['late'], 50) / pct(seq_probe['early'], 50):.2f}")  # fmt: skip
    if "floor_closed" in results:
        fl = results["floor_closed"][0]
        report_floor("floor, closed loop", *results["floor_closed"])
        if "closed" in results and fl.floor and results["closed"][0].moves:
            mv = results["closed"][0].moves
            print(f"  closed loop: move/floor p50 ratio {pct(mv, 50) / pct(fl.floor, 50):.2f}")
    if "floor_open" in results:
        fo = results["floor_open"][0]
        report_floor(f"floor, open loop at {rate:.0f} req/s", *results["floor_open"], rate=rate)
        if "open" in results and fo.floor and results["open"][0].moves:
            mv = results["open"][0].moves
            sched = pct(results["open"][0].moves_sched, 50) / pct(fo.floor_sched, 50)
            print(f"  open loop: move/floor p50 ratio {pct(mv, 50) / pct(fo.floor, 50):.2f} "
                  f"(response times), {sched:.2f} (from schedule)")  # fmt: skip


if __name__ == "__main__":
    main()
