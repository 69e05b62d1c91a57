"""Replay every started game from its move log and compare with the stored snapshot.

Run it before deploying a new engine version: any game whose replay differs is listed and the
command exits with status 1.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import engine
from games.models import Game


def game_replay(game: Game) -> Any:
    """The engine state rebuilt from the game's setup and moves."""
    state = engine.new_game(
        map=game.map,
        players=game.seats.count(),
        seed=int(game.seed) if game.seed is not None else 0,
        areas=None if game.areas_random else list(game.areas or []),
        variant=game.variant,
    )
    for move in game.moves.order_by("seq").iterator():
        state = engine.apply(state, move.seat, move.action)
    return state


class Command(BaseCommand):
    help = "Replays every game from its moves and reports any whose snapshot differs."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")

    def handle(self, *args: Any, **options: Any) -> None:
        qs = Game.objects.exclude(status=Game.Status.OPEN).order_by("pk")
        if options["game_ids"]:
            qs = qs.filter(pk__in=options["game_ids"])
        checked, bad = 0, []
        for game in qs.iterator():
            checked += 1
            try:
                state = game_replay(game)
            except Exception as exc:  # an old move the new engine refuses
                bad.append(game.pk)
                self.stdout.write(f"game {game.pk}: replay failed: {exc!r}")
                continue
            moves = game.moves.count()
            if moves != game.seq:
                bad.append(game.pk)
                self.stdout.write(f"game {game.pk}: seq {game.seq} but {moves} moves in the log")
            elif engine.to_json(state) != game.state_json:
                bad.append(game.pk)
                self.stdout.write(f"game {game.pk}: snapshot differs from the replay of {moves}")
        self.stdout.write(f"{checked} games replayed, {len(bad)} differ")
        if bad:
            raise CommandError(f"snapshots differ for games {', '.join(map(str, bad))}")
