"""After a failover or a point-in-time restore, before the workers send again: what the
recovery lost, told to the players once; delivered emails marked; deadlines re-armed; replays
checked (games.restore.services). Prints one JSON line of counts; exits 1 if a replay differs.

    manage.py after_restore --label restore-2026-11-29T14:05 [--journal DIR_OR_FILE ...]

The journal defaults to DELIVERY_JOURNAL_DIR (gather every worker host's files there first).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import re
from pathlib import Path
from typing import cast

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.restore import journal
from games.restore.services import after_restore


class Command(BaseCommand):
    help = "After a recovery: tell players what was lost, mark delivered emails, re-arm deadlines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--label", required=True, help="Names this recovery (once per label).")
        parser.add_argument("--journal", action="append", default=[], help="File or folder.")
        parser.add_argument("--no-replays", action="store_true", help="Skip check_replays.")

    def handle(self, *args: object, **options: object) -> None:
        paths = [Path(p) for p in cast(list[str], options["journal"])]
        if not paths:
            folder = journal.journal_dir()
            if folder is None:
                raise CommandError("no --journal and no DELIVERY_JOURNAL_DIR")
            paths = [folder]
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise CommandError(f"journal not found: {', '.join(missing)}")
        report = after_restore(paths=paths, label=str(options["label"]))
        if not options["no_replays"]:
            out = io.StringIO()
            with contextlib.suppress(CommandError):
                call_command("check_replays", stdout=out)
            report.replay_mismatches = len(set(re.findall(r"^game (\d+):", out.getvalue(), re.M)))
        self.stdout.write(json.dumps(dataclasses.asdict(report)))
        if report.replay_mismatches:
            raise CommandError(f"{report.replay_mismatches} games differ from their replays")
