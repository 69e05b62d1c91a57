"""Replay running games from their move logs and compare with their stored snapshots.

Run it before deploying a new engine version or new engine data (``deploy/OPERATIONS.md``): a rule
or a map changed under a running game shows up as a snapshot its replay no longer gives. Listed
per game, counted per map and variant; exits with status 1 if any differs. ``--all`` replays the
finished games too; game ids replay just those.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from games import engine
from games.models import Game
from games.selectors import history
from powergrid.state import State


def game_replay(game: Game) -> State:
    """The engine state rebuilt from the game's setup and moves (take-backs in the log skip the
    moves they cancel, ``powergrid.takeback``)."""
    return history.game_replay(game)


@contextmanager
def _snapshot() -> Iterator[None]:
    """One transaction that sees one snapshot of the database (PostgreSQL's REPEATABLE READ;
    SQLite's transactions are serializable already)."""
    outer = connection.in_atomic_block  # inside a caller's transaction: its snapshot rules
    with transaction.atomic():
        if connection.vendor == "postgresql" and not outer:
            with connection.cursor() as cur:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


class Command(BaseCommand):
    help = "Replays every game from its moves and reports any whose snapshot differs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")
        parser.add_argument("--all", action="store_true", help="Finished games too.")

    def handle(self, *args: Any, **options: Any) -> None:
        qs = Game.objects.exclude(status=Game.Status.OPEN).order_by("pk")
        if options["game_ids"]:
            qs = qs.filter(pk__in=options["game_ids"])
        elif not options["all"]:
            qs = qs.filter(status=Game.Status.RUNNING)
        current = engine.data_version()
        checked = 0
        bad: list[int] = []
        groups: dict[tuple[str, str], list[int]] = {}
        for pk in list(qs.values_list("pk", flat=True)):
            checked += 1
            with _snapshot():
                # The game row, its log and the replay in one snapshot: on a live server a move
                # committed between reading the row and the log is not a difference.
                game = Game.objects.get(pk=pk)
                self._check(game, current, groups, bad)
        for (map_slug, variant), (n, differ, older) in sorted(groups.items()):
            self.stdout.write(
                f"{map_slug} {variant}: {n} replayed, {differ} differ, "
                f"{older} started with other engine data"
            )
        self.stdout.write(f"{checked} games replayed, {len(bad)} differ (engine data {current})")
        if bad:
            raise CommandError(f"snapshots differ for games {', '.join(map(str, bad))}")

    def _check(
        self, game: Game, current: str, groups: dict[tuple[str, str], list[int]], bad: list[int]
    ) -> None:
        group = groups.setdefault((game.map, game.variant), [0, 0, 0])
        group[0] += 1
        if game.engine_data_version and game.engine_data_version != current:
            group[2] += 1
        before = len(bad)
        try:
            state = game_replay(game)
        except Exception as exc:  # an old move the new engine refuses
            bad.append(game.pk)
            self.stdout.write(f"game {game.pk}: replay failed: {exc!r}")
            return
        moves = game.moves.count()
        if moves != game.seq:
            bad.append(game.pk)
            self.stdout.write(f"game {game.pk}: seq {game.seq} but {moves} moves in the log")
        elif engine.to_json(state) != game.state_json:
            bad.append(game.pk)
            self.stdout.write(f"game {game.pk}: snapshot differs from the replay of {moves}")
        if len(bad) > before:
            group[1] += 1
