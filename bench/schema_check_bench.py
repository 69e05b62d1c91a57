"""What the schema-validating test client (tests/api_schema.py) adds to the API tests' time.

Runs the API tests with the check off (API_SCHEMA_CHECK=0) and on, alternating, ``--rounds``
times each, in one process at a time (``-n 0``), and prints each run's wall time and the CPU
time of the test process (user + system: what the check adds to, and what a busy machine does
not inflate), their medians and the added percentages, with the number of answers validated.
Run it under ``nice``.

    python bench/schema_check_bench.py --rounds 3
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
API_TESTS = [
    "tests/games/test_api_contract.py",
    "tests/games/test_api_full_game.py",
    "tests/games/test_api_formats.py",
    "tests/games/test_api_maps.py",
    "tests/games/test_api_auth_scheme.py",
    "tests/games/test_api_schema_fixes.py",
    "tests/games/test_chat.py",
    "tests/games/test_idempotency.py",
    "tests/games/test_invitations.py",
    "tests/games/plans/test_plans_api.py",
]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(check: bool, files: list[str]) -> tuple[float, float, int, str]:
    env = {**os.environ, "API_SCHEMA_CHECK": "1" if check else "0", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *files]
    start, cpu = time.perf_counter(), _children_cpu()
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    elapsed, cpu = time.perf_counter() - start, _children_cpu() - cpu
    tail = out.stdout.strip().splitlines()
    summary = next((line for line in reversed(tail) if " passed" in line), tail[-1] if tail else "")
    m = re.search(r"validated against the published schema: (\d+)", out.stdout)
    if out.returncode != 0:
        raise SystemExit(f"pytest failed:\n{out.stdout[-3000:]}\n{out.stderr[-2000:]}")
    return elapsed, cpu, int(m.group(1)) if m else 0, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("files", nargs="*", default=API_TESTS)
    args = parser.parse_args()
    wall: dict[bool, list[float]] = {False: [], True: []}
    cpu: dict[bool, list[float]] = {False: [], True: []}
    validated = 0
    for i in range(args.rounds):
        for check in (False, True) if i % 2 == 0 else (True, False):
            elapsed, used, n, summary = run(check, args.files)
            wall[check].append(elapsed)
            cpu[check].append(used)
            validated = max(validated, n)
            print(
                f"round {i + 1} check={'on ' if check else 'off'} wall {elapsed:7.1f} s, "
                f"CPU {used:6.1f} s  {summary}",
                flush=True,
            )
    for name, series in (("wall", wall), ("CPU", cpu)):
        off, on = statistics.median(series[False]), statistics.median(series[True])
        print(f"{name}: median off {off:.1f} s, on {on:.1f} s: {100 * (on - off) / off:+.1f} %")
    print(f"answers validated per run: {validated}")


if __name__ == "__main__":
    main()
