"""Who held each seat of a game, and when (``Tenure`` rows; docs/API.md, "Leaving and substitutes").

A seat has rows only once something happened to its holder: they resigned, sought a
substitute who came, or the bot took the seat over after timeouts. A seat without rows had one
holder (its ``Seat.user``) from the start: ``of_game`` makes that implicit tenure (unsaved), so
every reader (the ratings, the pages) sees one tenure per holder either way. Written only by
``games.services.seats`` and the turn hook (``turns``), inside the transaction that changes the
seat, with the game row locked.
"""

from __future__ import annotations

from datetime import datetime

from games.models import Game, Seat, Tenure


def current(game: Game, seat: Seat) -> Tenure:
    """The open tenure of ``seat``'s holder, made (from the game's start) if it has no row
    yet. Call with the game row locked."""
    row = (
        Tenure.objects.filter(game=game, seat=seat.seat, user_id=seat.user_id, to_seq__isnull=True)
        .order_by("-from_seq")
        .first()
    )
    if row is not None:
        return row
    return Tenure.objects.create(
        game=game, seat=seat.seat, user_id=seat.user_id, from_seq=0, started_at=game.started_at
    )


def close(row: Tenure, *, seq: int, now: datetime, ended: str) -> None:
    """End ``row`` after move ``seq`` (``ended``: resigned, timed_out or replaced)."""
    row.to_seq, row.ended_at, row.ended = seq, now, ended
    row.save(update_fields=["to_seq", "ended_at", "ended"])


def timed_out(game: Game, seat: Seat, *, now: datetime) -> None:
    """The bot took ``seat`` over from its holder after missed deadlines (the turn hook)."""
    row = current(game, seat)
    row.timed_out_at = now
    row.save(update_fields=["timed_out_at"])


def came_back(game: Game, seat: Seat) -> None:
    """The holder moved again after the bot had their seat: the timeout no longer ends it."""
    Tenure.objects.filter(
        game=game, seat=seat.seat, user_id=seat.user_id, to_seq__isnull=True
    ).update(timed_out_at=None)


def of_game(game: Game, seats: list[Seat]) -> list[Tenure]:
    """Every tenure of ``game`` by seat and start, with the implicit one (unsaved, from 0) of
    each seat that has no row."""
    rows = list(Tenure.objects.filter(game=game).order_by("seat", "from_seq"))
    have = {t.seat for t in rows}
    for s in seats:
        if s.seat not in have:
            rows.append(
                Tenure(game=game, seat=s.seat, user_id=s.user_id, started_at=game.started_at)
            )
    return sorted(rows, key=lambda t: (t.seat, t.from_seq))


def held_by(game: Game, user_id: int) -> bool:
    """Whether ``user_id`` holds or held a seat of ``game`` (a seat of theirs, or a tenure)."""
    return (
        Seat.objects.filter(game=game, user_id=user_id).exists()
        or Tenure.objects.filter(game=game, user_id=user_id).exists()
    )
