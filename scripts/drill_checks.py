"""What scripts/restore_drill reads and judges, apart from the run: a recovery script's report
(``after_report``: manage.py after_restore's JSON line, check_replays' mismatches, the timeline),
the emails the sink received against the delivery journal (``email_counts``), and the drill's
targets (``verdict``: raises SmokeFailed naming the first one missed).

A module (``.py``) beside the script, so that it imports it; it needs no Django set-up."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path
from typing import Any

from smoke_kit import check

#: The subject of the email manage.py after_restore writes to a player whose moves were lost.
RESTORED_SUBJECT = "restored to an earlier point"


def after_report(text: str) -> dict[str, Any]:
    """A recovery script's output read: after_restore's report, with ``replay_mismatches`` (from
    check_replays) and ``timeline`` (from the WAL file named, None without one)."""
    line = next(x for x in reversed(text.splitlines()) if x.startswith('{"label"'))
    report = dict(json.loads(line))
    replays = re.search(r"(\d+) games replayed, (\d+) differ", text)
    check(replays, "check_replays ran after the recovery")
    assert replays is not None
    report["replay_mismatches"] = int(replays.group(2))
    wal = re.search(r"WAL file ([0-9A-F]{8})", text)
    report["timeline"] = int(wal.group(1), 16) if wal else None
    return report


def email_counts(mails: list[Any], journal: Path) -> dict[str, Any]:
    """The sink's deliveries (``mails``, smoke_kit.Received) against the delivery journal's
    ``delivered-*.jsonl`` files: every notification once, every turn email once per game,
    player and move number, the players told of the restore."""
    ids = collections.Counter(m.notification for m in mails)
    doubled_ids = sum(c - 1 for c in ids.values() if c > 1)
    lines = []
    for f in sorted(journal.glob("delivered-*.jsonl")):
        lines += [json.loads(x) for x in f.read_text().splitlines() if x.strip()]
    # deliveries (not their chat lines, nor the lines of committed moves and messages)
    lines = [x for x in lines if "kind" in x and "n" in x]
    # a turn by the move number it asks for (``seq`` is the game's at sending: a turn email
    # that went late, after the game moved on, said the next turn's number and counted twice)
    turns = collections.Counter(
        (x["game"], x["user"], x.get("turn", x["seq"])) for x in lines if x["kind"] == "turn"
    )
    doubled_turns = sum(c - 1 for c in turns.values() if c > 1)
    told = {m.to[0] for m in mails if RESTORED_SUBJECT in m.subject}
    return {
        "sink": len(mails), "journal": len(lines), "doubled_ids": doubled_ids,
        "doubled_turns": doubled_turns, "told": len(told),
    }  # fmt: skip


def verdict(summary: dict[str, Any], figures: dict[str, Any], errors: list[str]) -> None:
    """Every target of the drill held, or SmokeFailed naming the first missed: no acknowledged
    move lost by the failover or the restore to the latest point, no replay differing, no email
    doubled, every awaited seat with a deadline; the restore to a named time lost moves and its
    players were told (as many as after_restore wrote to), after_restore finding every lost
    move (as many as were acknowledged and are gone); every delivery journaled; each
    recovery on a timeline of its own; the restores read the archive; no error seen."""
    bad = {
        "failover.moves_lost": summary["failover"]["moves_lost"],
        "pitr.moves_lost": summary["pitr"]["moves_lost"],
        "replay_mismatches": summary["replay_mismatches"],
        "emails_doubled": summary["emails_doubled"],
        "unarmed_seats": figures["unarmed_seats"],
    }
    check(not any(bad.values()), f"targets missed: {bad}")
    named = figures["pitr_named"]
    check(named["moves_lost"] > 0, "the restore to a named time lost moves on purpose")
    check(summary["players_told"] > 0, "players were told of the lost moves")
    # Every acknowledged move the named-time restore lost is found by after_restore from the
    # journal (the committed moves' lines: moves no email described too); it may find more
    # (a move committed whose answer the driver never read).
    found = named["after_restore"]["moves_lost"]
    check(
        found >= named["moves_lost"],
        f"after_restore found {found} lost moves of {named['moves_lost']} acknowledged",
    )
    mail = figures["emails"]
    check(mail["sink"] == mail["journal"], f"every delivery journaled: {mail}")
    lines = [
        figures[k]["after_restore"]["timeline"] for k in ("failover", "pitr_latest", "pitr_named")
    ]
    check(lines == sorted(set(lines)), f"each recovery on a timeline of its own: {lines}")
    check(figures["archive_get_found"] > 0, "the restores read the repository's archive")
    check(not errors, f"errors: {errors[:5]}")
