"""Periodic work of tournaments and leagues (``CELERY_BEAT_SCHEDULE``), and the making of a
round's tables' games after its commit."""

from __future__ import annotations

from celery import shared_task

from tournaments import leagues, services


@shared_task(name="tournaments.tasks.tournaments_sweep", acks_late=True, ignore_result=True)
def tournaments_sweep() -> dict[str, int]:
    return {**services.tournaments_sweep(), **leagues.leagues_sweep()}


@shared_task(name=services.TABLE_MAKE, acks_late=True, ignore_result=True)
def table_make(table_id: int) -> int | None:
    """Make one table's game (queued after its round's commit; safe to run twice)."""
    game = services.table_make(table_id=table_id)
    return game.pk if game is not None else None
