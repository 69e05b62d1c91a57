"""The restore drill's own counting (scripts/drill_checks.py): a turn email is counted by the
turn it asks for, so one sent late, after the game moved on, is not taken for a second email of
the next turn; two emails for one turn are still counted doubled."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import SimpleNamespace

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _checks():
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location("drill_checks", SCRIPTS / "drill_checks.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPTS))


def _journal(tmp_path: Path, lines: list[dict]) -> Path:
    (tmp_path / "delivered-h.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return tmp_path


def _turn(n: int, seq: int, turn: int | None) -> dict:
    line = {"v": 1, "n": n, "kind": "turn", "game": 7, "user": 3, "seq": seq}
    if turn is not None:
        line["turn"] = turn
    return line


def test_a_late_turn_email_is_not_a_doubled_turn(tmp_path):
    checks = _checks()
    mails = [SimpleNamespace(notification=str(n), to=["a@x"], subject="turn") for n in (1, 2)]
    late = _journal(tmp_path, [_turn(1, 12, 10), _turn(2, 12, 12)])
    assert checks.email_counts(mails, late)["doubled_turns"] == 0


def test_two_emails_for_one_turn_are_doubled(tmp_path):
    checks = _checks()
    mails = [SimpleNamespace(notification=str(n), to=["a@x"], subject="turn") for n in (1, 2)]
    twice = _journal(tmp_path, [_turn(1, 12, 12), _turn(2, 13, 12)])
    assert checks.email_counts(mails, twice)["doubled_turns"] == 1
    old = _journal(tmp_path, [_turn(1, 12, None), _turn(2, 12, None)])  # lines before ``turn``
    assert checks.email_counts(mails, old)["doubled_turns"] == 1
