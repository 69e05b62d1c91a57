"""``python -m powergrid``: simulate and bench, in-process and as a real subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from powergrid import bench, cli

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), out=out)
    return code, out.getvalue()


def test_simulate_summary() -> None:
    code, text = run("simulate", "--map", "usa", "--players", "3", "--games", "6", "--seed", "4")
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith("simulate: map=usa players=3 bot=heuristic")
    assert "games: 6  finished: 6  errors: 0" in lines[1]
    assert any(line.startswith("rounds: min ") for line in lines)
    assert any(line.startswith("moves per game: min ") for line in lines)
    assert any(line.startswith("winner's cities: min ") for line in lines)
    summary = json.loads(lines[-1])
    assert summary["games"] == 6
    assert summary["finished"] == 6
    assert summary["errors"] == []
    assert 5 <= summary["rounds"]["min"] <= summary["rounds"]["mean"] <= summary["rounds"]["max"]
    assert summary["moves"]["min"] > 50
    assert summary["winner_cities"]["max"] >= 17  # 3 players end at 17 cities


@pytest.mark.parametrize("bot", ["random", "mixed"])
def test_simulate_other_bots(bot: str) -> None:
    code, text = run("simulate", "--players", "5", "--games", "3", "--bot", bot)
    assert code == 0
    summary = json.loads(text.splitlines()[-1])
    assert summary["bot"] == bot
    assert summary["finished"] == 3


def test_simulate_first_game_variant() -> None:
    code, text = run("simulate", "--games", "3", "--variant", "first_game")
    assert code == 0
    summary = json.loads(text.splitlines()[-1])
    assert summary["winner_cities"]["max"] <= 7


def test_simulate_reports_errors_with_seeds() -> None:
    """A game that does not end within the move cap is an error, named by its seed."""
    code, text = run("simulate", "--games", "2", "--seed", "40", "--max-moves", "30")
    assert code == 1
    assert "error: seed 40: GameDidNotEnd" in text
    assert "error: seed 41: GameDidNotEnd" in text
    summary = json.loads(text.splitlines()[-1])
    assert [e["seed"] for e in summary["errors"]] == [40, 41]
    assert summary["finished"] == 0


def test_simulate_reports_engine_errors() -> None:
    code, text = run("simulate", "--games", "1", "--map", "atlantis")
    assert code == 1
    assert "error: seed 1: IllegalAction" in text


def test_bad_arguments_exit_with_usage() -> None:
    with pytest.raises(SystemExit) as exc:
        run("simulate", "--bot", "genius")
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        run("simulate", "--players", "7")


def test_bench_quick_prints_figures_and_json() -> None:
    code, text = run("bench", "--quick")
    assert code == 0
    lines = text.splitlines()
    figures = json.loads(lines[-1])
    assert list(figures) == [
        "apply_median_us",
        "legal_median_us",
        "view_median_us",
        "replay_4p_ms",
        "replay_6p_ms",
        "heuristic_games_per_s_4p",
        "heuristic_games_per_s_4p_usa",
        "heuristic_games_per_s_4p_france",
        "heuristic_games_per_s_4p_italy",
        "apply_median_us_new",
        "replay_4p_ms_new",
        "heuristic_games_per_s_4p_new",
        "heuristic_games_per_s_4p_mixed",
    ]
    assert all(isinstance(v, float | int) and v > 0 for v in figures.values())
    # The targets are printed beside the figures.
    assert any("apply_median_us" in line and "target <= 8" in line for line in lines)
    assert any("heuristic_games_per_s_4p" in line and "target >= 150" in line for line in lines)
    # Sanity bounds, far from the targets so a loaded machine does not fail the test.
    assert figures["apply_median_us"] < 500
    assert figures["replay_4p_ms"] < 200
    assert figures["heuristic_games_per_s_4p"] > 3


def test_format_figures_marks_missed_targets() -> None:
    lines = bench.format_figures({"apply_median_us": 9.5, "heuristic_games_per_s_4p": 200.0})
    assert "MISSED" in lines[0]
    assert lines[1].endswith("ok")


def test_module_entry_point_and_bench_script() -> None:
    """``python -m powergrid`` and ``bench/engine_bench.py`` run as real processes."""
    proc = subprocess.run(
        [sys.executable, "-m", "powergrid", "simulate", "--games", "2", "--players", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["finished"] == 2
    proc = subprocess.run(
        [sys.executable, "bench/engine_bench.py", "--quick", "--games", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "replay_6p_ms" in json.loads(proc.stdout.splitlines()[-1])
