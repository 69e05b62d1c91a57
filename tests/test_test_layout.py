"""The suite's own layout: pytest imports test modules by their base name (the test folders are
not packages), so two test files with one name in two folders make the second an "import file
mismatch" error that CI counts as a failure (tests/tournaments/test_pages.py beside
tests/games/web/test_pages.py did)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_name():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert {n: c for n, c in names.items() if c > 1} == {}


def test_no_virtual_environment_is_tracked():
    """A worktree's ``.venv`` link committed by mistake came in with a merge, and git replaced
    the main checkout's virtual environment with it (``.venv/`` in .gitignore does not match a
    link). The ignore file names both forms; this keeps it out of the index."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (TESTS.parent / ".git").exists():
        return
    tracked = subprocess.run(
        ["git", "ls-files", "--", ".venv", "venv"],
        cwd=TESTS.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert tracked == []


def test_helper_modules_are_imported_by_names_of_their_own():
    """Every folder's ``conftest.py`` is a module named ``conftest``: ``from conftest import x``
    gets whichever one the process imported first (tests/tournaments' did not have tests/games'
    helpers: four tests failed only when a games test ran before them in the same worker).
    Helpers shared by test modules live in a module with a name of its own (``apihelpers``...)."""
    statement = re.compile(r"^\s*(from conftest import|import conftest\b)", re.MULTILINE)
    importing = sorted(
        str(p.relative_to(TESTS)) for p in TESTS.rglob("*.py") if statement.search(p.read_text())
    )
    assert importing == []


def test_helper_modules_share_no_name():
    helpers = Counter(
        p.name for p in TESTS.rglob("*.py") if not p.name.startswith("test_") and p.name not in
        ("conftest.py", "__init__.py")
    )  # fmt: skip
    assert {n: c for n, c in helpers.items() if c > 1} == {}
