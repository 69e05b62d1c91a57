"""``manage.py verify_game ID [ID ...]``: check finished games as any player can.

For each game: its record (``GET /api/v1/games/{id}/record/``: the set-up with the revealed
seed, every move, the results) goes through the engine's ``powergrid.verify``, exactly what
``python -m powergrid verify record.json`` does on a player's machine: the seed must match the
commitment published at the start, every move must replay, and the replay must reach the
recorded results. Exits with status 1 if any game fails (a tampered move log, say).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine, selectors
from games.models import Game


class Command(BaseCommand):
    help = "Verifies finished games: the seed against its commitment, every move replayed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="+", type=int, help="The games to verify.")

    def handle(self, *args: Any, **options: Any) -> None:
        failed = 0
        for gid in options["game_ids"]:
            game = Game.objects.filter(pk=gid).first()
            if game is None:
                self.stderr.write(f"game {gid}: no such game")
                failed += 1
                continue
            if game.status != Game.Status.FINISHED:
                self.stderr.write(f"game {gid}: not over yet (its seed is secret until the end)")
                failed += 1
                continue
            if game.practice:
                self.stderr.write(f"game {gid}: a practice game (from a position): no record")
                failed += 1
                continue
            verdict = engine.record_verify(selectors.game_record(game))
            if verdict.ok:
                self.stdout.write(f"game {gid}: verified ({verdict.moves} moves): {verdict.reason}")
            else:
                self.stderr.write(f"game {gid}: NOT verified: {verdict.reason}")
                failed += 1
        if failed:
            raise CommandError(f"{failed} game(s) not verified")
