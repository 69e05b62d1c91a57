"""What the tournaments app does when a game ends, what a table's game being made and a
tournament's end tell the players (``tournaments.notify``, in the same transaction), and what
a league does when a division's tournament ends (connected in ``TournamentsConfig.ready``)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished
from tournaments import notify
from tournaments.leagues import season_check
from tournaments.models import Division, Round, Table, Tournament
from tournaments.services import tournament_game_ended
from tournaments.signals import table_ready, tournament_finished

log = logging.getLogger(__name__)


def _after_commit(game_id: int) -> None:
    """Record the table and perhaps start the next round, in a transaction of its own. A
    failure is logged, never raised into the finishing move's response: the periodic sweep
    (``tournaments_sweep``) records a finished table the hook missed."""
    try:
        tournament_game_ended(game_id=game_id)
    except Exception:
        log.exception("tournament hook failed for game %s; the sweep will retry", game_id)


@receiver(game_finished)
def table_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    if Table.objects.filter(game_id=game.pk).exists():
        transaction.on_commit(lambda: _after_commit(game.pk))


def _season_after_commit(league_id: int) -> None:
    """End the season (and start the next) in a transaction of its own, the league's row
    locked before any tournament's; a failure is logged (the sweep ends the season)."""
    try:
        season_check(league_id=league_id)
    except Exception:
        log.exception("league hook failed for league %s; the sweep will retry", league_id)


@receiver(table_ready)
def table_made(
    sender: Any, tournament: Tournament, round: Round, table: Table, **kwargs: Any
) -> None:
    notify.table_told(tournament, round, table)


@receiver(tournament_finished)
def tournament_ended(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    notify.final_told(tournament)


@receiver(tournament_finished)
def division_finished(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    league_id = (
        Division.objects.filter(tournament=tournament)
        .values_list("season__league_id", flat=True)
        .first()
    )
    if league_id is not None:
        transaction.on_commit(lambda: _season_after_commit(league_id))
