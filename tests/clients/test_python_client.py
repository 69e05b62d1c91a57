"""The client checked in under ``clients/`` is the one the schema makes now: the published schema
(``clients/openapi.json``) and openapi-python-client's package (``clients/python/``) are
regenerated into a temporary folder and compared file by file. A change of the API without
``make client`` fails here (the message says which files differ).

Without the generator (a machine without the dev extras) the test skips, except under CI."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "generate_client"


def _generator_installed() -> bool:
    here = Path(sys.executable).parent / "openapi-python-client"
    return here.exists()


def _differences(a: Path, b: Path) -> list[str]:
    """Paths (relative to ``a``) that differ, or exist on one side only."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        out.extend(f"{prefix}{n} (only checked in)" for n in cmp.left_only)
        out.extend(f"{prefix}{n} (only generated)" for n in cmp.right_only)
        out.extend(f"{prefix}{n}" for n in cmp.diff_files + cmp.funny_files)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(a, b, ignore=[".ruff_cache", "__pycache__"]), "")
    return out


def test_the_checked_in_client_is_what_the_schema_generates(tmp_path):
    if not _generator_installed():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but openapi-python-client is not installed (dev extras)")
        pytest.skip("openapi-python-client is not installed (pip install -e '.[dev]')")
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--into", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    stale = _differences(ROOT / "clients", tmp_path)
    assert not stale, "clients/ is stale: run `make client`. Differs: " + ", ".join(stale[:20])


def test_a_stale_file_is_noticed(tmp_path):
    """The comparison itself: a file changed, added or removed is reported."""
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        (d / "pkg").mkdir(parents=True)
        (d / "pkg" / "same.py").write_text("x = 1\n")
    (a / "pkg" / "changed.py").write_text("x = 1\n")
    (b / "pkg" / "changed.py").write_text("x = 2\n")
    (a / "gone.py").write_text("")
    (b / "new.py").write_text("")
    assert sorted(_differences(a, b)) == [
        "gone.py (only checked in)",
        "new.py (only generated)",
        "pkg/changed.py",
    ]
